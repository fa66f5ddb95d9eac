// The tests of mutation testing's second run (mutation/stryker.areas.config.mjs): those of
// vitest.stryker.config.ts but the files that build the whole app for every test or in
// beforeAll. The areas this run mutates (the privacy lists, the data update, the cities
// loader, the page shell) are reached by every request such a file sends, and Stryker runs a
// mutant's covering files again for each mutant: an app build of seconds per file per
// mutant. Their own tests reach every line in process, so the score this run reports is a
// floor: the files left out could only kill more.
import { defineConfig } from 'vitest/config';
import base from './vitest.stryker.config.ts';

const APP_BUILDING = [
  'tests/analytics-api.test.ts',
  'tests/asn-api.test.ts',
  'tests/cities-api.test.ts',
  'tests/command-line-api.test.ts',
  'tests/corrections-api.test.ts',
  'tests/data-credit.test.ts',
  'tests/data-swap.test.ts',
  'tests/hostname.test.ts',
  'tests/ifconfig-fields.test.ts',
  'tests/lookup-api.test.ts',
  'tests/odd-requests.test.ts',
  'tests/offline-dns.test.ts',
  'tests/port-check.test.ts',
  'tests/rate-limit-shared.test.ts',
  'tests/rate-limit.test.ts',
  'tests/security-headers.test.ts',
];

export default defineConfig({
  test: {
    ...base.test,
    exclude: [
      // The first run leaves this one out (its pages come from the build, which its mutants do
      // not change); here it is what holds the shell (page-shell.ts, load.ts) to Astro's own
      // pages, in process: only its last block starts a server, and only for its own tests.
      ...base.test!.exclude!.filter((file) => file !== 'tests/page-shell.test.ts'),
      ...APP_BUILDING,
    ],
  },
});
