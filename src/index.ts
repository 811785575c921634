/**
 * Every global the add-in exposes to Apps Script. The build turns each export into a top-level
 * `function NAME(…)` in dist/Code.js; names in capitals are custom functions and must carry a
 * JSDoc block with @customfunction, which the build copies onto the wrapper.
 */
export { FUND_FIELDS, FUND_GET, FUND_INDUSTRIES, FUND_LASTSIZE, LP_ACTIVE, LP_FIELDS, LP_FIRMS, LP_GET, LP_LABELS } from './custom-functions';
export { onInstall, onOpen, refreshAllFormulas, showSidebar } from './menu';
export { getSidebarState, refreshFormulas, removeApiKey, saveApiKey, saveCacheTtl, saveServiceUrl, testConnection } from './sidebar-api';
export { cancelImport, continueImport, deleteImport, importStatus, listImports, saveImport, scheduleImport, startImport } from './import-api';
export { continueImports, runScheduledImports } from './import/scheduler';
export { getDiagnostics, showDiagnostics } from './diagnostics';
