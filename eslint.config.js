import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from './tools/eslint/boundaries-rule.js';

/**
 * The API's modules from the top down (docs/decisions/0031): a module imports only modules listed
 * after it, so the picture of apps/api/src/modules has no arrow running back up. A new module
 * takes its place in this list.
 */
const API_MODULES = [
  // The manager's Live page (issue 50): reads across sessions, the line, payments and errors.
  'live',
  'reports',
  'closures',
  'season-editor',
  'privacy',
  'support',
  'audit',
  'staff',
  'photos',
  'waitlist',
  'bookings',
  // Wallet passes (decision 0099): read by bookings and staff, reads the booking lifecycle.
  'wallet',
  'payments',
  // Chargebacks (issue 56): applied by the payment webhook, read by support and the reports.
  'disputes',
  // Gift vouchers' sale (issue 52, decision 0112): paid through the payment webhook; the ledger below.
  'voucher-sales',
  'checkout',
  'reservations',
  'queue',
  'availability',
  'catalogue',
  'orders',
  'booking-lifecycle',
  // Promo codes (issue 52, decision 0106): priced by the cart and the checkout, made by managers.
  'promos',
  // An order's payment and refunds: their states, named moves and the money left (decision 0091).
  'order-payments',
  // Account credit's ledger (issue 52, decision 0111): written by order-payments' credit moves, read by the cart.
  'credit',
  // Gift vouchers' ledger and codes (decision 0112): spent by the checkout, given back by order-payments.
  'vouchers',
  // The session and its holds: the one writer of the slot row and of hold rows (issue 49, decision 0089).
  'sessions',
  'check-in',
  'app-check',
  // The payment page's change check (decision 0098): tells the managers, so above staff-accounts.
  'payment-page',
  'staff-accounts',
  'accounts',
  'marketing',
  // SMS (decision 0100): texted by bookings, closures and staff; sends with mail's retry schedule.
  'sms',
  'mail',
  // The charity a cart may give to (issue 52, decision 0109): read by the web app; the cart and reports apart.
  'donations',
  'policy',
  'terms',
  'health',
  // The audit trail's writer: every module audits its own changes (issue 48 item 5).
  'audit-trail',
  // The metrics (decision 0088): the hold and payment paths count into it; it imports no module.
  'operations',
];
const kringle = { rules: { boundaries } };
const apiModuleLayers = API_MODULES.map((name, i) => ({
  from: `apps/api/src/modules/${name}`,
  disallow: API_MODULES.slice(0, i + 1)
    .filter((above) => above !== name)
    .map((above) => `apps/api/src/modules/${above}`),
  message: `The API's modules import downwards only (${API_MODULES.join(' > ')})`,
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '**/drizzle/**',
      'bench/reports/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier wraps code at 120; this holds comments, strings and templates to it too (decision 0101).
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'No barrel files: import from the module itself.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // docs/decisions/0031-api-module-direction.md
    files: ['apps/api/src/modules/**/*.ts'],
    plugins: { kringle },
    rules: { 'kringle/boundaries': ['error', { layers: apiModuleLayers }] },
  },
  {
    // docs/decisions/0017-import-boundaries.md
    files: ['apps/web/src/**/*.{ts,tsx}'],
    // A test may build its store from another feature's test helpers, as app/ does for real.
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    plugins: { kringle },
    rules: {
      'kringle/boundaries': [
        'error',
        {
          layers: [
            {
              from: 'apps/web/src/features/{feature}',
              disallow: ['apps/web/src/features/{feature}', 'apps/web/src/app', 'apps/web/src/staff'],
              message: 'A feature imports only itself, components, lib and contracts: compose features in app/',
            },
            {
              from: 'apps/web/src/app',
              disallow: ['apps/web/src/staff'],
              message: 'The customer app never loads staff code (issue 19: its own entry and bundle)',
            },
            {
              from: 'apps/web/src/staff',
              disallow: ['apps/web/src/features', 'apps/web/src/app'],
              message: 'The staff app is its own entry: it uses components, lib and contracts, never the customer app',
            },
            {
              from: 'apps/web/src/components',
              disallow: ['apps/web/src/features', 'apps/web/src/app', 'apps/web/src/staff'],
              message: 'Shared components know no feature and no app wiring',
            },
            {
              from: 'apps/web/src/lib',
              disallow: ['apps/web/src/features', 'apps/web/src/app', 'apps/web/src/components', 'apps/web/src/staff'],
              message: 'lib/ is plain code below components and features',
            },
          ],
        },
      ],
    },
  },
);
