import axe from 'axe-core';
import { test, expect, type PadlabPage } from './fixtures/padlab';

// axe-core (the engine behind most accessibility checkers), run inside the page: WCAG 2.x
// levels A and AA, over the whole app once its worker has answered.

async function violations(padlab: PadlabPage) {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy (which the
  // suite runs under) refuses inline script tags.
  await padlab.page.evaluate(axe.source);
  const found = await padlab.page.evaluate(async () => {
    const result = await (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map((v: any) => ({
      rule: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n: any) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  return found;
}

async function settled(padlab: PadlabPage) {
  // The worker has answered: code, or the reason there is none.
  const panel = padlab.page.getByRole('tabpanel', { name: 'PyTorch', exact: true });
  await expect(panel.getByTestId('code-torch').or(panel.getByText('the source layer is refused'))).toBeAttached();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`no WCAG A/AA violations (${scheme} scheme)`, async ({ padlab }) => {
    await padlab.page.emulateMedia({ colorScheme: scheme });
    await padlab.open();
    await settled(padlab);
    expect(await violations(padlab)).toEqual([]);
  });
}

test('no WCAG A/AA violations with a refused layer, a pool and a transposed layer', async ({ padlab }) => {
  for (const query of [
    'op=conv&fw=torch&in=224x224&k=7&s=2&p=same',
    'op=max_pool&fw=torch&in=7&k=3&s=2&p=1&ceil=1',
    'op=conv_transpose&fw=keras&in=4&k=3&s=2&p=same',
  ]) {
    await padlab.page.goto(`./?${query}`);
    await expect(padlab.outputSize.or(padlab.error)).toBeVisible();
    await settled(padlab);
    expect(await violations(padlab), query).toEqual([]);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test(`no WCAG A/AA violations in the Model view, with a model and with an error (${scheme})`, async ({ padlab }) => {
    await padlab.page.emulateMedia({ colorScheme: scheme });
    await padlab.open();
    await padlab.page.getByTestId('view-model').click();
    await padlab.page.getByTestId('model-preset-seed-002').click();
    await expect(padlab.page.getByTestId('model-row')).toHaveCount(9);
    await expect(padlab.page.getByTestId('model-code-torch')).toBeVisible();
    expect(await violations(padlab)).toEqual([]);
    await padlab.page.getByTestId('model-source').fill('model = nn.Sequential(\n  nn.Conv2d(3, 8, 3),\n  nn.GRUCell(8, 8),\n)\n');
    await expect(padlab.page.getByTestId('model-error')).toBeVisible();
    expect(await violations(padlab)).toEqual([]);
  });
}
