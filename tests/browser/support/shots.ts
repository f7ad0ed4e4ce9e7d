import type { Page } from '@playwright/test';

/** Saves a full-page screenshot when FIELDBOOK_SHOTS is set, for looking at every screen. */
export async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.FIELDBOOK_SHOTS) return;
  await page.screenshot({ path: `tests/.artifacts/shots/${name}.png`, fullPage: true });
}
