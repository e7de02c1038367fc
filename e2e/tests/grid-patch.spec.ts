import { test, expect } from './fixtures/padlab';

/** The grid's static layer as markup. */
const base = (padlab) =>
  padlab.page.getByTestId('grid-svg').locator('g.base').evaluate((g: Element) => g.innerHTML);

test('a grid patched in place by edits equals the grid a fresh load draws', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=onnx&in=12x12&k=3&s=1&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '12x12');
  // Edits that keep some blocks (only cell states or transforms change) and some that do not.
  // The framework change redraws: ONNX Runtime sizes a dilated 'same' pool's padding with the
  // undilated kernel (2 a side, output 9x5), JAX with the dilated one (4 a side, 13x9).
  const edits: [string, string, string][] = [
    ['kernel', '5', '12x12'],
    ['stride', '2', '6x6'],
    ['padding', 'valid', '4x4'],
    ['stride', '1', '8x8'],
    ['dilation', '2', '4x4'],
    ['input', '13x9', '5x1'],
    ['op', 'max_pool', '5x1'],
    ['padding', 'same', '9x5'],
    ['framework', 'jax', '13x9'],
    ['padding', '1,2x0,3', '8x4'],
  ];
  for (const [field, value, size] of edits) {
    const before = padlab.page.url();
    const previous = await base(padlab);
    if (field === 'framework' || field === 'op') await padlab.field(field).selectOption(value);
    else await padlab.set(field, value);
    await expect(padlab.outputSize).toHaveAttribute('data-value', size);
    const patched = await base(padlab);
    if (field !== 'op') expect(patched, `${field}=${value} changes the grid`).not.toBe(previous);
    // The address bar follows the edit once typing pauses.
    await expect.poll(() => padlab.page.url()).not.toBe(before);
    const url = padlab.page.url();
    const fresh = await padlab.newPage();
    await fresh.goto(url);
    await expect(fresh.getByTestId('output-size')).toHaveAttribute('data-value', size);
    const drawn = await fresh.getByTestId('grid-svg').locator('g.base').evaluate((g: Element) => g.innerHTML);
    await fresh.close();
    expect(patched, `after ${field}=${value}`).toBe(drawn);
  }
});
