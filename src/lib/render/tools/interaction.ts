/** AskUserQuestion, ExitPlanMode, Skill and SlashCommand. */
import type { ToolCall } from '../../transcript/types.js';
import type { RenderContext } from '../context.js';
import { html, type SafeHtml } from '../sanitize.js';
import { errorBlock, markdownBlock, toolFrame } from './common.js';
import { obj, resultText, str, structured } from '../tool-data.js';

interface Question {
  question: string;
  header?: string;
  multiSelect: boolean;
  options: Array<{ label: string; description?: string }>;
}

function questionsOf(input: Record<string, unknown>): Question[] {
  const raw = Array.isArray(input.questions) ? input.questions : input.question !== undefined ? [input.question] : [];
  return raw
    .map((q) => (typeof q === 'string' ? { question: q } : obj(q)))
    .filter((q): q is Record<string, unknown> => !!q)
    .map((q) => ({
      question: str(q.question) ?? '',
      header: str(q.header),
      multiSelect: q.multiSelect === true,
      options: (Array.isArray(q.options) ? q.options : [])
        .map((o) => (typeof o === 'string' ? { label: o } : obj(o)))
        .filter((o): o is Record<string, unknown> => !!o)
        .map((o) => ({ label: str(o.label) ?? '', description: str(o.description) })),
    }));
}

/** Answers by question: from the structured result, else parsed from `"question"="answer"` in the result text. */
function answersOf(call: ToolCall): Map<string, string> {
  const answers = new Map<string, string>();
  const a = obj(structured(call)?.answers);
  if (a) for (const [q, v] of Object.entries(a)) if (typeof v === 'string') answers.set(q, v);
  if (!answers.size && call.result) {
    for (const m of resultText(call.result).matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)) answers.set(m[1], m[2]);
  }
  return answers;
}

/** AskUserQuestion: each question, its options, and the answer chosen. */
export function renderAskUserQuestion(call: ToolCall, ctx: RenderContext): SafeHtml {
  const questions = questionsOf(call.input);
  const answers = answersOf(call);
  const items = questions.map((q) => {
    const answer = answers.get(q.question);
    const chosen = (label: string) => !!answer && (answer === label || (q.multiSelect && answer.split(/,\s*/).includes(label)));
    const matched = q.options.some((o) => chosen(o.label));
    return html`<div class="question">${q.header ? html`<div class="question-header">${q.header}</div>` : ''}<p class="question-text">${q.question}</p>${
      q.options.length
        ? html`<ul class="options">${q.options.map(
            (o) =>
              html`<li class="option${chosen(o.label) ? ' chosen' : ''}"><span class="option-label">${o.label}</span>${chosen(o.label) ? html` <span class="badge badge-ok">chosen</span>` : ''}${o.description ? html`<span class="option-desc">${o.description}</span>` : ''}</li>`,
          )}</ul>`
        : ''
    }${answer !== undefined && !matched ? html`<p class="answer"><span class="field-label">Answer</span> ${answer}</p>` : ''}</div>`;
  });
  const r = call.result;
  const output = r?.isError ? errorBlock(resultText(r)) : !answers.size && r ? html`<p class="tool-message">${resultText(r)}</p>` : html``;
  return toolFrame(call, ctx, { summary: `${questions.length} question${questions.length === 1 ? '' : 's'}`, input: html`${items}`, output });
}

/** ExitPlanMode: the plan as markdown, and whether it was approved. */
export function renderExitPlanMode(call: ToolCall, ctx: RenderContext): SafeHtml {
  const plan = str(call.input.plan) ?? str(structured(call)?.plan) ?? '';
  const r = call.result;
  let output = html``;
  let badges = html``;
  if (r) {
    const text = resultText(r);
    if (r.isError) {
      badges = html` <span class="badge badge-warn">not approved</span>`;
      output = errorBlock(text);
    } else if (/approved/i.test(text)) {
      badges = html` <span class="badge badge-ok">approved</span>`;
    }
  }
  return toolFrame(call, ctx, { summary: 'Plan', badges, input: markdownBlock(plan, 'md plan'), output });
}

/** Skill: the skill name and arguments. */
export function renderSkill(call: ToolCall, ctx: RenderContext): SafeHtml {
  const name = str(call.input.skill) ?? str(call.input.command) ?? '';
  const args = str(call.input.args);
  return toolFrame(call, ctx, { summary: html`<code>${name}</code>${args ? html` <code>${args}</code>` : ''}` });
}

/** SlashCommand: the command line the model ran. */
export function renderSlashCommand(call: ToolCall, ctx: RenderContext): SafeHtml {
  return toolFrame(call, ctx, { summary: html`<code>${str(call.input.command) ?? ''}</code>` });
}
