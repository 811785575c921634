/**
 * HtmlService: HTML files of the deployed project (dist/*.html) as HtmlOutput, templates with
 * printing scriptlets (<?= ?>, <?!= ?>) evaluated against the template's fields.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Execution } from './execution';

class HtmlOutput
  implements
    Pick<
      GoogleAppsScript.HTML.HtmlOutput,
      | 'getContent'
      | 'setContent'
      | 'getTitle'
      | 'setTitle'
      | 'setWidth'
      | 'setHeight'
      | 'getWidth'
      | 'getHeight'
      | 'append'
    >
{
  private title = '';
  private width = 300;
  private height = 0;
  constructor(private content: string) {}
  private self(): GoogleAppsScript.HTML.HtmlOutput {
    return this as unknown as GoogleAppsScript.HTML.HtmlOutput;
  }
  getContent(): string {
    return this.content;
  }
  setContent(content: string): GoogleAppsScript.HTML.HtmlOutput {
    this.content = content;
    return this.self();
  }
  append(addedContent: string): GoogleAppsScript.HTML.HtmlOutput {
    this.content += addedContent;
    return this.self();
  }
  getTitle(): string {
    return this.title;
  }
  setTitle(title: string): GoogleAppsScript.HTML.HtmlOutput {
    this.title = title;
    return this.self();
  }
  setWidth(width: number): GoogleAppsScript.HTML.HtmlOutput {
    this.width = width;
    return this.self();
  }
  setHeight(height: number): GoogleAppsScript.HTML.HtmlOutput {
    this.height = height;
    return this.self();
  }
  getWidth(): number {
    return this.width;
  }
  getHeight(): number {
    return this.height;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

class HtmlTemplate {
  [field: string]: unknown;
  constructor(private readonly source: string) {}
  evaluate(): GoogleAppsScript.HTML.HtmlOutput {
    const html = this.source.replace(/<\?(!?=)\s*([A-Za-z_$][\w$]*)\s*\?>/g, (_, mode: string, name: string) => {
      const v = String(this[name] ?? '');
      return mode === '!=' ? v : escapeHtml(v);
    });
    if (/<\?/.test(html)) throw new Error('not emulated: HtmlTemplate scriptlets other than <?= name ?>');
    return new HtmlOutput(html) as unknown as GoogleAppsScript.HTML.HtmlOutput;
  }
}

export class EmulatedHtmlService
  implements
    Pick<GoogleAppsScript.HTML.HtmlService, 'createHtmlOutput' | 'createHtmlOutputFromFile' | 'createTemplateFromFile'>
{
  constructor(
    private readonly exec: Execution,
    private readonly dir: string,
  ) {}
  private read(filename: string): string {
    const name = filename.endsWith('.html') ? filename : `${filename}.html`;
    try {
      return readFileSync(join(this.dir, name), 'utf8');
    } catch {
      throw this.exec.makeError(`Exception: No HTML file named ${filename} was found.`);
    }
  }
  createHtmlOutput(html?: string | GoogleAppsScript.Base.BlobSource): GoogleAppsScript.HTML.HtmlOutput {
    this.exec.charge('HtmlService.createHtmlOutput');
    const text = typeof html === 'string' ? html : html ? html.getBlob().getDataAsString() : '';
    return new HtmlOutput(text) as unknown as GoogleAppsScript.HTML.HtmlOutput;
  }
  createHtmlOutputFromFile(filename: string): GoogleAppsScript.HTML.HtmlOutput {
    this.exec.charge('HtmlService.createHtmlOutputFromFile');
    return new HtmlOutput(this.read(filename)) as unknown as GoogleAppsScript.HTML.HtmlOutput;
  }
  createTemplateFromFile(filename: string): GoogleAppsScript.HTML.HtmlTemplate {
    this.exec.charge('HtmlService.createTemplateFromFile');
    return new HtmlTemplate(this.read(filename)) as unknown as GoogleAppsScript.HTML.HtmlTemplate;
  }
}
