/**
 * Writes the SDK's API report (extensions-sdk/api-report.md) from the sources:
 * `npm run api-report -w @fieldbook/extensions-sdk`. Refuses while a declaration was removed or
 * changed and the major version is still the report's. Before a version is first published there is
 * nothing to break: deleting the report and writing it again accepts any change.
 */
import { existsSync, writeFileSync } from 'node:fs';
import {
  breakingWithoutMajor,
  compareSurfaces,
  formatReport,
  readApiSurface,
  readCheckedInReport,
  REPORT_PATH,
} from './api-report.ts';

const now = readApiSurface();
if (existsSync(REPORT_PATH)) {
  const before = readCheckedInReport();
  const refusal = breakingWithoutMajor(before, now);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  const { removed, changed, added } = compareSurfaces(before, now);
  console.log(
    `SDK ${before.version} → ${now.version}: ${added.length} added, ${changed.length} changed, ${removed.length} removed.`,
  );
}
writeFileSync(REPORT_PATH, formatReport(now));
console.log(`Wrote ${REPORT_PATH}.`);
