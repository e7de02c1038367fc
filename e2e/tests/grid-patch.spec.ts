import { test, expect } from './fixtures/padlab';

/** The grid's static layer as markup. */
const base = (padlab) =>
  padlab.page.getByTestId('grid-svg').locator('g.base').evaluate((g: Element) => g.innerHTML);

test('a grid patched in place by edits equals the grid a fresh load draws', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=keras&in=12x12&k=3&s=1&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '12x12');
  // Edits that keep some blocks (only cell states or transforms change) and some that do not.
  const edits: [string, string, string][] = [
    ['kernel', '5', '12x12'],
    ['stride', '2', '6x6'],
    ['padding', 'valid', '4x4'],
    ['stride', '1', '8x8'],
    ['dilation', '2', '4x4'],
    ['input', '13x9', '5x1'],
    ['framework', 'tf', '5x1'],
    ['padding', '1,2x0,3', '8x4'],
  ];
  for (const [field, value, size] of edits) {
    const before = padlab.page.url();
    if (field === 'framework') await padlab.chooseFramework(value);
    else await padlab.set(field, value);
    await expect(padlab.outputSize).toHaveAttribute('data-value', size);
    const patched = await base(padlab);
    // The address bar follows the edit once typing pauses.
    await expect.poll(() => padlab.page.url()).not.toBe(before);
    const url = padlab.page.url();
    const fresh = await padlab.page.context().newPage();
    await fresh.goto(url);
    await expect(fresh.getByTestId('output-size')).toHaveAttribute('data-value', size);
    const drawn = await fresh.getByTestId('grid-svg').locator('g.base').evaluate((g: Element) => g.innerHTML);
    await fresh.close();
    expect(patched, `after ${field}=${value}`).toBe(drawn);
  }
});
