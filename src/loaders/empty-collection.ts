import type { LoaderContext } from 'astro/loaders';

/** A placeholder id set and deleted again at once (see `keepCollectionKnown`). */
const PLACEHOLDER_ID = '__sessionpress-empty__';

/**
 * Leaves a collection with no entries known to Astro's store, and empty.
 * Otherwise every page that lists the collection makes Astro warn that it
 * "does not exist or is empty" (once per page), where one line from the
 * loader says why it is empty. Setting then deleting an entry keeps the
 * collection in the store.
 */
export function keepCollectionKnown(store: LoaderContext['store']): void {
  store.set({ id: PLACEHOLDER_ID, data: {} });
  store.delete(PLACEHOLDER_ID);
}
