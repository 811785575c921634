/**
 * The add-in's layers, enforced by `npm run lint` (dependency-cruiser, parsing with swc because
 * TypeScript 7 has no JS API):
 *   src/api, src/table  pure: the service client and records -> rows (api never imports table)
 *   src/import          pure: the import state machine over ports
 *   src/contract.ts     the sidebar <-> server contract (types and `answer`)
 *   src/gas             the only code that touches Apps Script services (also: Biome's
 *                       noRestrictedGlobals forbids Apps Script globals everywhere else in src/)
 *   src/entry           entry points: custom functions, sidebar endpoints, menu, triggers;
 *                       they never import each other
 *   src/index.ts        lists the globals
 * Nothing in src/ imports dev/, test/, sidebar/ or Node built-ins; sidebar/ imports only the
 * contract's types from src/; no cycles, in src/, sidebar/ or dev/ (the service, emulator and
 * workbench).
 */
const layer = (name, from, allowed) => ({
  name,
  comment: `${from} may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: from },
  to: { pathNot: [...allowed, '^node_modules'] },
});

module.exports = {
  forbidden: [
    layer('api-is-pure', '^src/api/', ['^src/api/']),
    layer('table-is-pure', '^src/table/', ['^src/table/', '^src/api/']),
    layer('import-is-pure', '^src/import/', ['^src/import/', '^src/api/', '^src/table/']),
    layer('contract-is-small', '^src/contract\\.ts$', ['^src/api/', '^src/import/']),
    layer('gas-adapts', '^src/gas/', ['^src/gas/', '^src/api/', '^src/table/', '^src/import/']),
    layer('entry-points-are-thin', '^src/entry/', ['^src/api/', '^src/table/', '^src/import/', '^src/gas/', '^src/contract\\.ts$']),
    layer('index-lists-entry-points', '^src/index\\.ts$', ['^src/entry/', '^src/contract\\.ts$', '^src/index\\.ts$']),
    {
      name: 'sidebar-sees-only-the-contract',
      comment: 'the sidebar (browser code) may take only the contract from src/',
      severity: 'error',
      from: { path: '^sidebar/' },
      to: { path: '^src/', pathNot: '^src/contract\\.ts$' },
    },
    {
      name: 'src-runs-in-apps-script',
      comment: 'src/ runs in Apps Script V8: no Node built-ins, nothing from dev/ or test/',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: { path: '^(src|sidebar|dev)/' },
      to: { circular: true, viaOnly: { pathNot: '^src/index\\.ts$' } },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^(src|sidebar|dev)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
