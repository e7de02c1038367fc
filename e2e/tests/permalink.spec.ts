import { test, expect } from './fixtures/padlab';

test('a permalink restores the layer, and edits update the URL', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=keras&in=100x20&k=4x1&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(padlab.field('framework')).toHaveValue('keras');
  await expect(padlab.field('padding')).toHaveValue('same');
  await padlab.set('input', '99x20');
  await expect(padlab.page).toHaveURL(/in=99x20/);
  await expect(padlab.page).toHaveURL(/fw=keras/);
});

test('back and forward walk through the layers', async ({ padlab }) => {
  // The page's clock, so that "a pause between two edits" is a jump in time, not a sleep
  // racing the app's constant (app/link.rs NEW_ENTRY_AFTER: an edit that long after the last
  // history entry opens a new one; a quicker one is merged into it).
  await padlab.page.clock.install();
  await padlab.open();
  await padlab.preset('seed-000');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(padlab.page).toHaveURL(/k=4x1/);
  await padlab.page.clock.fastForward('01:00'); // a new history entry, not a merged edit
  await padlab.preset('resnet-stem');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '112x112');
  await padlab.page.goBack();
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(padlab.page).toHaveURL(/k=4x1/);
  await padlab.page.goForward();
  await expect(padlab.outputSize).toHaveAttribute('data-value', '112x112');
});

test('a link with bad parameters keeps the good ones and says which it dropped', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=caffe&in=banana&k=3&s=2&zzz=1');
  // The default's input (6x6) with the link's kernel 3 and stride 2: (6 - 3) / 2 + 1 = 2.
  await expect(padlab.outputSize).toHaveAttribute('data-value', '2x2');
  await expect(padlab.field('kernel')).toHaveValue('3');
  await expect(padlab.field('stride')).toHaveValue('2');
  const notice = padlab.page.getByTestId('url-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('caffe');
  await expect(notice).toContainText('dropped in=banana');
  await expect(notice).toContainText('zzz');
});

test('copy link puts the permalink on the clipboard', async ({ padlab, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await padlab.open();
  await padlab.preset('seed-003');
  await padlab.page.getByTestId('copy-link').click();
  await expect(padlab.page.getByTestId('link-status')).toContainText('Link copied');
  const copied = await padlab.page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('fw=tf');
  expect(copied).toContain('p=1,1x1,1');
});
