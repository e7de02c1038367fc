import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/padlab';

// On a phone, the Whole model view never scrolls sideways: a note that quotes a long line of
// the paste (a transfer-learning model from Keras Applications, whose call is one long token)
// wraps instead of widening the page.
const transfer = readFileSync(`${__dirname}/../../tests/models/keras_transfer_mobilenetv2.py`, 'utf8');

test('a model with a long quoted call stays within a phone’s width', async ({ padlab }) => {
  const page = padlab.page;
  await page.setViewportSize({ width: 390, height: 844 });
  await padlab.open();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-input').fill('160x160x3');
  await page.getByTestId('model-source').fill(transfer);
  await expect(page.locator('#model-output .note').first()).toContainText('Keras Applications');
  await expect(page.getByTestId('model-row').first()).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page is no wider than the phone').toBeLessThanOrEqual(390);
});
