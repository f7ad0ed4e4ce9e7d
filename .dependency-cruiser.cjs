// The direction of imports, as the architecture page (ARCHITECTURE.md) draws it, checked by `npm run deps`
// (and by `npm test`): plugins use only the SDK, core uses no module, a module uses another only
// through that module's package entries, and nothing imports in a circle.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** Escaped for a regular expression. */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The files a module offers other modules: the targets of its package.json `exports` (the
 * package entries `@fieldbook/<name>`, `@fieldbook/<name>/web`, ...). Anything else in the module
 * is its own.
 */
const moduleEntries = readdirSync(join(__dirname, 'modules')).flatMap((name) => {
  let exportsField;
  try {
    exportsField = JSON.parse(readFileSync(join(__dirname, 'modules', name, 'package.json'), 'utf8')).exports ?? {};
  } catch {
    return [];
  }
  return Object.values(exportsField)
    .filter((target) => typeof target === 'string')
    .map((target) => `^modules/${literal(name)}/${literal(target.replace(/^\.\//, ''))}$`);
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports: move what both sides need into a file of its own that both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'plugins-use-only-the-sdk',
      severity: 'error',
      comment:
        'A plugin gets everything through the typed context the SDK hands it: it imports @fieldbook/extensions-sdk, never core, a module, the web host or another plugin.',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^(core|modules|host-web|migrations|plugins/(?!$1/))' },
    },
    {
      name: 'core-uses-no-module',
      severity: 'error',
      comment: 'The kernel knows no domain module: modules depend on core, never the other way.',
      // core/scripts/ packages the published test host, which bundles research in on purpose
      // (a composition, like a server started with its modules), not the kernel itself.
      from: { path: '^core/', pathNot: '^core/scripts/' },
      to: { path: '^modules/' },
    },
    {
      name: 'modules-meet-at-package-entries',
      severity: 'error',
      comment:
        'A module uses another only through what its package exports (@fieldbook/<name>, @fieldbook/<name>/web, ...), never by reaching into its files: export what is needed from the entry.',
      from: { path: '^modules/([^/]+)/' },
      to: {
        path: '^modules/(?!$1/)[^/]+/',
        pathNot: moduleEntries,
      },
    },
    {
      // Known today, listed in .dependency-cruiser-known-violations.json (`--ignore-known`): the
      // AI module's summary panel, translate dialog and suggested highlights on research's note
      // page, Ask on the search page, the agents list on the automations page. Each waits for
      // named slots its page declares (a larger change); any other such import fails the check.
      name: 'screens-of-another-module-go-in-slots',
      severity: 'error',
      comment:
        "A module's page draws another module's screen through a named slot the page declares and the other module fills (ARCHITECTURE.md), not by importing its component.",
      from: { path: '^modules/([^/]+)/web/' },
      to: { path: '^modules/(?!$1/)[^/]+/web/.+[.]tsx$' },
    },
    {
      name: 'host-web-mounts-module-entries',
      severity: 'error',
      comment: "The web host mounts what a module's package exports (@fieldbook/<name>/web), never its other files.",
      from: { path: '^host-web/' },
      to: { path: '^modules/[^/]+/', pathNot: moduleEntries },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.artifacts)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    // A second run reads again only the files that changed.
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
