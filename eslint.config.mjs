import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Tenant-safe reads (STYLE.md §5): outside a repository, nothing calls MikroORM's finders on an
 * EntityManager or a repository; lookups go through the aggregate's repository, whose finders take
 * the organization first (TenantRepository). `[].find(fn)` and friends stay allowed.
 */
const FINDERS = 'find|findOne|findOneOrFail|findAll|findAndCount|findByCursor|count|nativeUpdate|nativeDelete|upsert|upsertMany';
const scopedLookups = {
  selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=/^(${FINDERS})$/]:not([arguments.0.type=/FunctionExpression$/])`,
  message:
    'Unscoped lookup: call a finder of the aggregate\'s repository (domain/*.repository.ts), which takes the organization first.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', scopedLookups] },
  },
);
