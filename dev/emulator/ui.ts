/**
 * The emulated UI of SpreadsheetApp.getUi(): menus (recorded in the workbook for the workbench
 * to show), the sidebar, dialogs (recorded in the execution's ledger), alerts. Each call asks the
 * execution's authorization mode first: AuthMode.NONE may only build menus, and sidebars and
 * dialogs need the script.container.ui scope, which LIMITED does not have.
 */
import type { Execution } from './execution';
import type { Workbook } from './workbook';

const as = <T>(v: unknown): T => v as T;

class EmulatedMenu implements Pick<GoogleAppsScript.Base.Menu, 'addItem' | 'addSeparator' | 'addToUi'> {
  private readonly items: Array<{ caption: string; functionName?: string }> = [];
  constructor(
    private readonly caption: string,
    private readonly book: Workbook,
  ) {}
  addItem(caption: string, functionName: string): GoogleAppsScript.Base.Menu {
    this.items.push({ caption, functionName });
    return as<GoogleAppsScript.Base.Menu>(this);
  }
  addSeparator(): GoogleAppsScript.Base.Menu {
    this.items.push({ caption: '—' });
    return as<GoogleAppsScript.Base.Menu>(this);
  }
  addToUi(): void {
    this.book.menus.set(this.caption, this.items);
  }
}

export class EmulatedUi
  implements
    Pick<
      GoogleAppsScript.Base.Ui,
      'createMenu' | 'createAddonMenu' | 'showSidebar' | 'showModalDialog' | 'showModelessDialog' | 'alert'
    >
{
  constructor(
    private readonly book: Workbook,
    private readonly exec: Execution,
    private readonly addOnName: string,
  ) {}
  private call(method: string): void {
    this.exec.authorize('Ui', method);
    this.exec.charge(`Ui.${method}`);
  }
  createMenu(caption: string): GoogleAppsScript.Base.Menu {
    this.call('createMenu');
    return as<GoogleAppsScript.Base.Menu>(new EmulatedMenu(caption, this.book));
  }
  /** A bound script's add-on menu sits under Extensions, captioned with the project's name (the add-on's name when published). */
  createAddonMenu(): GoogleAppsScript.Base.Menu {
    this.call('createAddonMenu');
    return as<GoogleAppsScript.Base.Menu>(new EmulatedMenu(this.addOnName, this.book));
  }
  showSidebar(userInterface: GoogleAppsScript.HTML.HtmlOutput): void {
    this.call('showSidebar');
    this.book.sidebar = { title: userInterface.getTitle(), html: userInterface.getContent() };
  }
  showModalDialog(userInterface: GoogleAppsScript.HTML.HtmlOutput, title: string): void {
    this.call('showModalDialog');
    this.exec.ledger.dialogs.push({ title: String(title), html: userInterface.getContent(), modal: true });
  }
  showModelessDialog(userInterface: GoogleAppsScript.HTML.HtmlOutput, title: string): void {
    this.call('showModelessDialog');
    this.exec.ledger.dialogs.push({ title: String(title), html: userInterface.getContent(), modal: false });
  }
  alert(prompt: string): GoogleAppsScript.Base.Button {
    this.call('alert');
    this.book.alerts.push(String(prompt));
    return as<GoogleAppsScript.Base.Button>('OK');
  }
}
