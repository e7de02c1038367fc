import { test, expect } from './fixtures/padlab';

// The main view as a person sees it, written to e2e/screenshots/ (checked in and looked at).
test('a screenshot of the main view', async ({ padlab }) => {
  await padlab.page.setViewportSize({ width: 1280, height: 1400 });
  await padlab.page.goto('./?op=conv&fw=keras&in=12x12&k=3&s=2&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '6x6');
  await expect(padlab.page.getByTestId('code-torch')).toBeVisible(); // from the worker
  await padlab.page.getByTestId('step-forward').click();
  await padlab.page.getByTestId('grid-svg').getByTestId('cell-output').nth(8).hover();
  const dir = process.env.PADLAB_BASE ? 'test-results' : 'screenshots';
  await padlab.page.screenshot({ path: `${dir}/main-view.png`, fullPage: true });
});
