// The single-file page (dist/chronograph.html, written by scripts/single-file.mjs) opened
// through file:// as a double-click opens it: no server, nothing fetched, and the seed
// walkthrough works as on the served page. And the served page (dist/index.html), opened
// the same way, says what to do instead of staying blank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, launch, suite } from './harness.mjs';
import { seedWalkthrough } from './walkthrough.mjs';

const open = suite({ file: 'chronograph.html' });

test('dist/chronograph.html from file:// runs the seed walkthrough with no server', async () => {
  const app = await open();
  assert.match(app.page.url(), /^file:\/\/.*\/chronograph\.html(\?|$)/);
  const requests = [];
  app.page.on('request', (r) => requests.push(r.url()));
  await seedWalkthrough(app, 'single-file-');
  // Everything was inlined: the walkthrough loads nothing from anywhere.
  assert.deepEqual(requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:')), []);
});

test('dist/index.html from file:// explains that it needs a server and links the single file', async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(dist, 'index.html')).href);
    const boot = page.getByRole('status');
    await boot.getByText('This page needs a web server').waitFor();
    assert.equal(await boot.getByRole('link', { name: 'chronograph.html' }).getAttribute('href'), 'chronograph.html');
    // The same message in Chinese for a Chinese browser (the app's language rule: ?lang= first).
    await page.goto(`${pathToFileURL(join(dist, 'index.html')).href}?lang=zh`);
    await page.getByRole('status').getByText('此页面需要通过 Web 服务器打开', { exact: false }).waitFor();
  } finally {
    await browser.close();
  }
});
