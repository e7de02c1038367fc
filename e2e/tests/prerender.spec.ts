import { test, expect } from './fixtures/padlab';

test('the picture pre-rendered in index.html is exactly the one the app draws', async ({ padlab }) => {
  const html = await (await padlab.page.request.get('./')).text();
  await padlab.open();
  const live = await padlab.page.getByTestId('grid-svg').evaluate((svg: Element) => ({
    base: svg.querySelector('g.base')!.innerHTML,
    viewBox: svg.getAttribute('viewBox'),
    width: svg.getAttribute('width'),
    label: svg.getAttribute('aria-label'),
  }));
  const pre = await padlab.page.evaluate((text) => {
    const svg = new DOMParser().parseFromString(text, 'text/html').querySelector('#prerendered svg')!;
    return {
      base: svg.querySelector('g.base')!.innerHTML,
      viewBox: svg.getAttribute('viewBox'),
      width: svg.getAttribute('width'),
      label: svg.getAttribute('aria-label'),
    };
  }, html);
  expect(pre.base.match(/data-testid="cell-input"/g)).toHaveLength(36);
  expect(pre).toEqual(live);
  // The app replaced the static copy.
  await expect(padlab.page.locator('#prerendered')).toHaveCount(0);
});

test('a permalink never shows the default picture first', async ({ padlab }) => {
  // Every frame until the app has drawn, note whether the pre-rendered picture is visible.
  await padlab.page.addInitScript(() => {
    const w = window as any;
    w.__prerenderedShown = false;
    const check = () => {
      const el = document.getElementById('prerendered');
      if (el && el.checkVisibility()) w.__prerenderedShown = true;
      if (!document.querySelector('[data-testid="output-size"]')) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  });
  await padlab.page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as any).__prerenderedAtLoad = document.getElementById('prerendered') !== null;
    });
  });
  await padlab.page.goto('./?op=conv&fw=keras&in=8x8&k=3&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '8x8');
  expect(await padlab.page.evaluate(() => (window as any).__prerenderedShown)).toBe(false);
  // Nor left in the page for anything that counts cells before the app has drawn.
  expect(await padlab.page.evaluate(() => (window as any).__prerenderedAtLoad)).toBe(false);
  // The default page does show it (so the check above can fail).
  const fresh = await padlab.page.context().newPage();
  await fresh.addInitScript(() => {
    new MutationObserver(() => {
      const el = document.getElementById('prerendered');
      if (el && el.checkVisibility()) (window as any).__prerenderedShown = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await fresh.goto('./');
  await expect(fresh.getByTestId('output-size')).toBeVisible();
  expect(await fresh.evaluate(() => (window as any).__prerenderedShown)).toBe(true);
  await fresh.close();
});

for (const [query, size, cells] of [
  ['op=conv&fw=torch&in=7x5&k=3&s=2&p=1x2', '4x4', 35],
  ['op=max_pool&fw=onnx&in=4x5x6&k=2&s=2&p=1&ceil=1', '3x3x4', 30], // 3-D: one depth slice
] as const) {
  test(`a permalink's picture is drawn before the app mounts, and it is the app's picture (${query})`, async ({ padlab }) => {
    // Record the first picture that appears while the skeleton is still up (#app aria-busy).
    await padlab.page.addInitScript(() => {
      new MutationObserver(() => {
        const w = window as any;
        // (The default's copy in index.html is parsed, hidden and removed: not this one.)
        const svg = document.querySelector('#app[aria-busy] .results section:not(#prerendered) svg');
        if (svg && w.__early === undefined) {
          w.__early = {
            base: svg.querySelector('g.base')!.innerHTML,
            viewBox: svg.getAttribute('viewBox'),
            width: svg.getAttribute('width'),
          };
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await padlab.page.goto(`./?${query}`);
    await expect(padlab.outputSize).toHaveAttribute('data-value', size);
    const early = await padlab.page.evaluate(() => (window as any).__early);
    expect(early, 'a picture before the app mounted').toBeTruthy();
    expect(early.base.match(/data-testid="cell-input"/g)).toHaveLength(cells);
    const live = await padlab.page.getByTestId('grid-svg').evaluate((svg: Element) => ({
      base: svg.querySelector('g.base')!.innerHTML,
      viewBox: svg.getAttribute('viewBox'),
      width: svg.getAttribute('width'),
    }));
    expect(early).toEqual(live);
    // The skeleton's copy is gone once the app has drawn: one picture in the page.
    await expect(padlab.page.locator('.results svg g.base')).toHaveCount(1);
  });
}
