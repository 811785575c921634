/**
 * The emulated UI of SpreadsheetApp.getUi(): menus (recorded in the workbook for the workbench
 * to show), the sidebar, alerts.
 */
import type { Execution } from './execution';
import type { Workbook } from './workbook';

const as = <T>(v: unknown): T => v as T;

class EmulatedMenu implements Pick<GoogleAppsScript.Base.Menu, 'addItem' | 'addSeparator' | 'addToUi'> {
  private readonly items: Array<{ caption: string; functionName?: string }> = [];
  constructor(private readonly caption: string, private readonly book: Workbook) {}
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

export class EmulatedUi implements Pick<GoogleAppsScript.Base.Ui, 'createMenu' | 'createAddonMenu' | 'showSidebar' | 'alert'> {
  constructor(private readonly book: Workbook, private readonly exec: Execution, private readonly addOnName: string) {}
  createMenu(caption: string): GoogleAppsScript.Base.Menu {
    this.exec.charge('Ui.createMenu');
    return as<GoogleAppsScript.Base.Menu>(new EmulatedMenu(caption, this.book));
  }
  createAddonMenu(): GoogleAppsScript.Base.Menu {
    this.exec.charge('Ui.createAddonMenu');
    return as<GoogleAppsScript.Base.Menu>(new EmulatedMenu(this.addOnName, this.book));
  }
  showSidebar(userInterface: GoogleAppsScript.HTML.HtmlOutput): void {
    this.exec.charge('Ui.showSidebar');
    this.book.sidebar = { title: userInterface.getTitle(), html: userInterface.getContent() };
  }
  alert(prompt: string): GoogleAppsScript.Base.Button {
    this.exec.charge('Ui.alert');
    this.book.alerts.push(String(prompt));
    return as<GoogleAppsScript.Base.Button>('OK');
  }
}

