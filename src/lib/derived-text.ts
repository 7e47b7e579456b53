/**
 * A text property that is made each time it is read instead of held: for a
 * copy of a text the record holds in another form (a Read result's numbered
 * lines, src/lib/transcript/shared-result-text.ts). Every reader sees a plain
 * string, the same each time; writing the property makes it a plain value
 * again. The redaction walk knows such a property (src/lib/redact/redactor.ts)
 * and looks at its text in its turn without holding it with the others.
 */

/** A text made when read: its length is known without making it. */
export interface DerivedText {
  readonly length: number;
  read(): string;
}

/** The objects holding a derived text, with its key: one per object, dropped once the property is written. */
const DERIVED = new WeakMap<object, { key: string; text: DerivedText }>();

/**
 * Makes `holder[key]` a text made by `make` each time it is read, of `length`
 * characters (what `make` returns, always the same). Writing the property
 * makes it a plain value.
 */
export function deriveText(holder: object, key: string, length: number, make: () => string): void {
  const text: DerivedText = { length, read: make };
  Object.defineProperty(holder, key, { configurable: true, enumerable: true, get: make, set: plainOnWrite(key) });
  DERIVED.set(holder, { key, text });
}

/** The derived text `holder` has (see {@link deriveText}) and its key, if it still has one. */
export function derivedTextOf(holder: object): { key: string; text: DerivedText } | undefined {
  const found = DERIVED.get(holder);
  // Deleted and set again (a walk that rebuilds an object's keys in order): a plain value now.
  return found && Object.getOwnPropertyDescriptor(holder, found.key)?.get === found.text.read ? found : undefined;
}

/**
 * Copies `source[sourceKey]` to `target[targetKey]`: a derived text stays
 * derived (copying the string would hold it), any other value is copied as
 * it is.
 */
export function copyDerivedText(source: object, sourceKey: string, target: object, targetKey: string): void {
  const derived = derivedTextOf(source);
  if (derived?.key === sourceKey) deriveText(target, targetKey, derived.text.length, derived.text.read);
  else (target as Record<string, unknown>)[targetKey] = (source as Record<string, unknown>)[sourceKey];
}

/** A setter that makes the property a plain value again, holding what is written. */
function plainOnWrite(key: string): (this: object, value: unknown) => void {
  return function (this: object, value: unknown) {
    DERIVED.delete(this);
    Object.defineProperty(this, key, { configurable: true, enumerable: true, writable: true, value });
  };
}
