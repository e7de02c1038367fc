import { test, expect } from './fixtures/padlab';

test('the page renders the default layer (seed 004: 6x6, k5, s2, p2 -> 3x3)', async ({ padlab }) => {
  await padlab.open();
  await expect(padlab.outputSize).toHaveAttribute('data-value', '3x3');
  await expect(padlab.error).toHaveCount(0);
  await expect(padlab.page.locator('main')).not.toHaveAttribute('aria-busy', 'true');
});
