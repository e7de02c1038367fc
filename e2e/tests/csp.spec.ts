import { test, expect } from './fixtures/padlab';

// The page runs under its Content-Security-Policy (a meta tag with the hashes of the inline
// scripts as built): no violation on the way through the app, the worker and a model port.
test('the page and its worker run under the Content-Security-Policy, without a violation', async ({ padlab }) => {
  const page = padlab.page;
  await page.addInitScript(() => {
    (window as any).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as any).cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await page.goto('./?op=conv&fw=keras&in=224x224&k=7&s=2&p=same');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
  // The script directive allows the built inline scripts by hash, and nothing unsafe.
  expect(policy!.split(';')[1]).not.toMatch(/'unsafe-(eval|inline)'/);
  await expect(page.getByTestId('code-torch')).toBeAttached();
  await expect(page.getByTestId('plot-svg')).toBeAttached();
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-preset-dcgan').click();
  await expect(page.getByTestId('model-row').first()).toBeVisible();
  expect(await page.evaluate(() => (window as any).cspViolations)).toEqual([]);
});
