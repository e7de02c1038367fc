import { test, expect } from './fixtures/padlab';

test('copy puts the selected snippet on the clipboard', async ({ padlab, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await padlab.open();
  const block = await padlab.code('keras');
  await padlab.page.getByTestId('copy-keras').click();
  await expect(padlab.page.getByTestId('copy-status')).toContainText('Copied the Keras code');
  const copied = await padlab.page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await block.innerText());
  expect(copied).toContain('keras.layers.Conv2D');
});
