/**
 * Every global the add-in exposes to Apps Script. The build turns each export into a top-level
 * `function NAME(…)` in dist/Code.js; names in capitals are custom functions and must carry a
 * JSDoc block with @customfunction, which the build copies onto the wrapper.
 */
import type { Endpoints } from './contract';
import type * as globals from './index';

export { FUND_GET, FUND_LASTSIZE, LP_FIRMS, LP_GET, LP_LABELS } from './entry/custom-functions';
export { FUND_FIELDS, FUND_INDUSTRIES, LP_ACTIVE, LP_FIELDS } from './entry/lists';
export { LP_FILTER } from './entry/filter';
export { LP_FIND } from './entry/find';
export { LP_MATCH } from './entry/match';
export {
  adoptTable,
  cancelImport,
  continueImport,
  countMatches,
  deleteImport,
  filterValues,
  importStatus,
  importsStamp,
  listImports,
  replaceAnyway,
  saveImport,
  scheduleImport,
  startImport,
} from './entry/imports';
export { onInstall, onOpen, refreshAllFormulas, showSidebar } from './entry/menu';
export {
  allowAlerts,
  getSidebarState,
  refreshFormulas,
  removeApiKey,
  saveApiKey,
  saveSettings,
  sendKeyTo,
  testConnection,
} from './entry/sidebar';
export { getDiagnostics, showDiagnostics } from './entry/diagnostics';
export { runScheduledImports } from './entry/triggers';

/** tsc fails unless every endpoint of the sidebar contract (src/contract.ts) is a global here, with a compatible signature. */
type Implements<T extends Endpoints> = T;
export type ExposedEndpoints = Implements<typeof globals>;
