/**
 * The sidebar's few interaction rules, in one place so every card follows them: messages go to
 * a polite status region beside the controls they are about; an error about a field is shown
 * under that field, tied to it (aria-invalid, aria-describedby) and focus moves to the first
 * field at fault; a button stays focusable while its work runs (aria-disabled, not disabled, so
 * focus never drops to the page); and a question that needs an answer ("Send my key to <host>?",
 * "Delete …?") appears in place, takes focus, and gives it back to the control that asked.
 * Everything from the server is put on the page as text (textContent), never as HTML.
 */
import type { Answer, SettingField } from './rpc';

/** A count with its thousands grouped by commas (`10,045`), as the add-in's messages write it. */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

export function button(text: string, className = ''): HTMLButtonElement {
  const b = el('button', text);
  b.type = 'button';
  if (className) b.className = className;
  return b;
}

export type Tone = 'ok' | 'error' | 'warning' | '';

/** Shows `text` in a status region (role="status": read politely, once). */
export function say(region: string, text: string, tone: Tone = ''): void {
  const m = $(region);
  m.textContent = text;
  m.className = `status ${tone}`.trim();
}

/** The input each settings field of the server's answers is about. */
export const FIELD_INPUT: Record<SettingField, string> = {
  apiKey: 'api-key',
  baseUrl: 'base-url',
  ttlSeconds: 'cache-ttl',
  alert: 'alert-fields',
};

/** Shows an error under its field and ties it to it; the error's element is `<input id>-error`. */
export function fieldError(input: string, message: string): void {
  const field = $(input);
  const error = $(`${input}-error`);
  error.textContent = message;
  error.hidden = false;
  field.setAttribute('aria-invalid', 'true');
}

export function clearFieldErrors(...inputs: string[]): void {
  for (const input of inputs) {
    $(input).removeAttribute('aria-invalid');
    const error = $(`${input}-error`);
    error.textContent = '';
    error.hidden = true;
  }
}

/** Moves focus to the first of `inputs` marked invalid; true when there was one. */
export function focusFirstError(...inputs: string[]): boolean {
  const first = inputs.find((i) => $(i).getAttribute('aria-invalid') === 'true');
  if (first) $(first).focus();
  return first !== undefined;
}

/**
 * A failed answer: shown under its field when it names one (focus moves there), else in the
 * status region. Returns nothing; the caller's control keeps focus in the second case.
 */
export function showFailure(failure: Extract<Answer, { ok: false }>, region: string): void {
  if (failure.field) {
    fieldError(FIELD_INPUT[failure.field], failure.message);
    $(FIELD_INPUT[failure.field]).focus();
    say(region, '');
  } else {
    say(region, failure.message, 'error');
  }
}

const working = new WeakSet<HTMLElement>();

/**
 * Runs `work` for a button: the button is marked busy (aria-disabled) and ignores presses until
 * the work ends, and keeps focus throughout; focus comes back to it if a redraw took it away.
 */
export async function busy(control: HTMLElement, work: () => Promise<void>): Promise<void> {
  if (working.has(control) || control.getAttribute('aria-disabled') === 'true') return;
  working.add(control);
  control.setAttribute('aria-disabled', 'true');
  control.setAttribute('aria-busy', 'true');
  const hadFocus = document.activeElement === control;
  try {
    await work();
  } finally {
    working.delete(control);
    control.removeAttribute('aria-disabled');
    control.removeAttribute('aria-busy');
    if (
      hadFocus &&
      control.isConnected &&
      (document.activeElement === document.body || document.activeElement === null)
    )
      control.focus();
  }
}

export interface Question {
  /** Where the question appears: right after this element. */
  after: HTMLElement;
  /** The question as read, e.g. "Send my key to 127.0.0.1:8787?". */
  text: string;
  yes: string;
  no: string;
  /** A line under the question (what answering yes does). */
  detail?: string;
}

/**
 * Asks a question in place: a labelled group with the question and two buttons, focus on the
 * first. Escape answers no. Resolves with the answer once the group is gone; the caller decides
 * where focus goes next.
 */
export function ask(q: Question): Promise<boolean> {
  document.querySelector('.question')?.dispatchEvent(new Event('investor-data:dismiss'));
  return new Promise((resolve) => {
    // A fieldset is a group named by its legend: the question.
    const box = el('fieldset');
    box.className = 'question';
    const id = `question-${Date.now().toString(36)}`;
    box.append(el('legend', q.text));
    if (q.detail) {
      const detail = el('p', q.detail);
      detail.className = 'hint';
      detail.id = `${id}-detail`;
      box.setAttribute('aria-describedby', detail.id);
      box.append(detail);
    }
    const yes = button(q.yes, 'action');
    const no = button(q.no);
    const row = el('div');
    row.className = 'row';
    row.append(yes, no);
    box.append(row);
    const done = (answer: boolean) => {
      box.remove();
      resolve(answer);
    };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    box.addEventListener('investor-data:dismiss', () => done(false));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        done(false);
      }
    });
    q.after.after(box);
    no.focus();
  });
}
