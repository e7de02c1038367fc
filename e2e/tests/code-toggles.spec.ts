import { test, expect } from './fixtures/padlab';

test('toggling self-check turns the snippet into a runnable check script', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('seed-000');
  const torch = await padlab.code('torch');
  await expect(torch).not.toContainText('run_source_layer');
  await padlab.page.getByTestId('toggle-check').check();
  await expect(torch).toContainText('run_source_layer');
  await expect(torch).toContainText('padlab self-check passed');
  await padlab.page.getByTestId('toggle-check').uncheck();
  await expect(torch).not.toContainText('run_source_layer');
});

test('export-safe PyTorch pads explicitly instead of padding="same"', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('seed-000');
  const torch = await padlab.code('torch');
  await expect(torch).toContainText('padding="same"');
  await padlab.page.getByTestId('toggle-export-safe').check();
  await expect(torch).not.toContainText('padding="same"');
  await expect(torch).toContainText('F.pad(x, (0, 0, 1, 2))');
});
