/**
 * Boundaries between contexts (STYLE.md §2, ARCHITECTURE.md "Layout"), checked by `npm run lint`.
 * A context is `libs/<name>`; its public surface is `libs/<name>/src/index.ts` (alias `@app/<name>`).
 * Domain code may use only the platform's pure half, `libs/platform/src/core.ts` (`@app/platform/core`).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'No import cycles: not between contexts, not inside one. An entity and its repository name each other ' +
        "by MikroORM's design (`@Entity({ repository })` + `[EntityRepositoryType]`); that pair is the one exception.",
      from: { path: '^(libs|apps)/' },
      to: { circular: true, via: { pathNot: '^libs/[^/]+/src/domain/[^/]+\\.(entity|repository)\\.ts$' } },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'No two folders import each other (auth/ and http/rate-limit/, say), even without a file cycle.',
      scope: 'folder',
      from: { path: '^(libs|apps)/' },
      to: { circular: true },
    },
    {
      name: 'context-through-index',
      severity: 'error',
      comment: 'A context reaches another only through its index.ts (`@app/<name>`), never a deep path.',
      from: { path: '^libs/([^/]+)/' },
      to: {
        path: '^libs/([^/]+)/src/',
        pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$', '^libs/platform/src/core\\.ts$'],
      },
    },
    {
      name: 'apps-through-index',
      severity: 'error',
      comment: 'Apps import libs only through their aliases (index.ts).',
      from: { path: '^apps/' },
      to: {
        path: '^libs/[^/]+/src/',
        pathNot: ['^libs/[^/]+/src/index\\.ts$', '^libs/platform/src/core\\.ts$'],
      },
    },
    {
      name: 'platform-knows-no-context',
      severity: 'error',
      comment: 'libs/platform serves every context and imports none.',
      from: { path: '^libs/platform/' },
      to: { path: '^libs/(?!platform/)' },
    },
    {
      name: 'queues-build-on-crm',
      severity: 'error',
      comment:
        'Queues build on the platform, identity and the CRM (through their indexes); none of them imports queues.',
      from: { path: '^libs/(platform|identity|crm)/' },
      to: { path: '^libs/queues/' },
    },
    {
      name: 'routing-builds-on-queues',
      severity: 'error',
      comment:
        'Routing builds on the platform, identity, the CRM and queues (through their indexes); none of them imports routing.',
      from: { path: '^libs/(platform|identity|crm|queues)/' },
      to: { path: '^libs/routing/' },
    },
    {
      name: 'documents-build-on-crm',
      severity: 'error',
      comment:
        'Documents build on the platform, identity and the CRM (through their indexes); none of them imports documents.',
      from: { path: '^libs/(platform|identity|crm|queues|routing)/' },
      to: { path: '^libs/documents/' },
    },
    {
      name: 'search-is-a-leaf',
      severity: 'error',
      comment:
        'Search builds on the CRM (its SearchIndexer port, LeadAccess) and listings (ListingSources); no context ' +
        'imports search but mcp (its tools search_crm and match_listing run the search services).',
      from: { path: '^libs/(?!search/|mcp/)' },
      to: { path: '^libs/search/' },
    },
    {
      name: 'events-are-a-leaf',
      severity: 'error',
      comment:
        "Events (the log, webhooks) read what the platform's Outbox writes; only apps import them, no context.",
      from: { path: '^libs/(?!events/)' },
      to: { path: '^libs/events/' },
    },
    {
      name: 'events-build-on-platform-and-crm',
      severity: 'error',
      comment:
        'Events use the platform and the CRM (LeadAccess for reach), through their indexes; no other context.',
      from: { path: '^libs/events/' },
      to: { path: '^libs/(?!events/|platform/|crm/)' },
    },
    {
      name: 'mcp-is-a-leaf',
      severity: 'error',
      comment:
        'The MCP server builds on every context (through their indexes) to mirror their /v1 routes as tools; ' +
        'no context imports mcp (only apps do).',
      from: { path: '^libs/(?!mcp/)' },
      to: { path: '^libs/mcp/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'domain/ holds aggregates and rules: no Nest, no HTTP layer, no other context, and of the ' +
        'platform only its pure half (`@app/platform/core`: errors, clock, principal, secrets, TenantRepository).',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: {
        path: ['^node_modules/@nestjs/', '/http/', '^libs/[^/]+/src/(?!domain/)'],
        pathNot: ['^libs/platform/src/core\\.ts$'],
      },
    },
    {
      name: 'platform-core-is-pure',
      severity: 'error',
      comment: "The platform's pure half reaches no Nest, HTTP, config or jobs code.",
      from: { path: '^libs/platform/src/core\\.ts$' },
      to: {
        path: ['^node_modules/@nestjs/', '^libs/platform/src/(http|config|jobs|auth/.*guard)'],
        reachable: true,
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
