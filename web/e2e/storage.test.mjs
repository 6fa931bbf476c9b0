// The storage view: estimated bytes per store for the thread on the page, the running
// total along the selected branch, and a prune preview that dims what it would drop
// and deletes nothing. Checked after the seed walkthrough (13 checkpoints, HEAD c12,
// whose lineage is c0 → c11 → c12), in English and in Chinese, with an axe audit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';
import { seedWalkthrough } from './walkthrough.mjs';

const open = suite();

/** `4.3 KB` → 4300 (the panel prints powers of 1,000). */
function parseBytes(text) {
  const m = /([\d.]+)\s*(B|KB|MB|GB)/.exec(text);
  assert.ok(m, `a size in ${JSON.stringify(text)}`);
  return Number(m[1]) * { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 }[m[2]];
}

for (const lang of ['en', 'zh']) {
  test(`storage view (${lang}): totals per store, the branch chart, and a prune preview that deletes nothing`, async () => {
    const app = await open(undefined, undefined, lang);
    const w = app.w;
    await seedWalkthrough(app, `storage-${lang}-`);
    assert.equal(await app.count(), 13);

    await app.button(w.storageButton).click();
    const panel = app.page.getByRole('region', { name: w.storage, exact: true });
    await panel.waitFor();
    const [sqlite, postgres, chronograph] = (await panel.locator('.storage-legend strong').allTextContents()).map(parseBytes);
    // LangGraph's SQLite saver writes every value at every put; the PostgreSQL saver a
    // blob per changed version; Chronograph's store a list's new items only.
    assert.ok(Math.min(sqlite, postgres) > chronograph, `${sqlite}, ${postgres} > ${chronograph}`);
    const caption = panel.locator('.caption');
    assert.match(await caption.textContent(), /c12/);
    assert.equal(await panel.locator('polyline').count(), 3);

    // The branch follows the selection.
    await app.select('c3');
    assert.match(await caption.textContent(), /c3/);

    const pruned = app.page.getByRole('button', { name: new RegExp(`${w.pruned}$`) });
    const picker = panel.getByRole('combobox', { name: w.prunePreview });
    await picker.selectOption('lineage');
    await app.page.waitForFunction(() => document.querySelectorAll('svg.dag .node.pruned').length > 0);
    assert.equal(await pruned.count(), 10, 'HEAD lineage keeps c0, c11, c12');
    for (const kept of ['c0', 'c11', 'c12']) assert.doesNotMatch(await app.name(kept), new RegExp(`${w.pruned}$`));
    const said = await panel.getByRole('status').textContent();
    assert.ok(said.includes('10') && said.includes('13'), said);
    await app.audit(`the storage view with a prune preview (${lang})`);
    await app.shot(`storage-${lang}`);

    await picker.selectOption('latest');
    await app.page.waitForFunction(() => document.querySelectorAll('svg.dag .node.pruned').length === 12);
    await picker.selectOption('last');
    await app.page.waitForFunction(() => document.querySelectorAll('svg.dag .node.pruned').length === 10);

    // A preview only: closing the view clears it, and the thread still has every checkpoint.
    await app.button(w.storageButton.replace('▸', '▾')).click();
    await panel.waitFor({ state: 'hidden' });
    assert.equal(await pruned.count(), 0);
    assert.equal(await app.count(), 13);
  });
}

test('storage view: a subgraph run is pruned with the checkpoint that ran it', async () => {
  const app = await open();
  await app.pickScenario('research');
  await app.run('{"log": []}');
  await app.page.locator('svg.dag [data-expand]').first().click();
  await app.page.locator('svg.dag .frame').first().waitFor();
  const subgraphRows = await app.page.locator('svg.dag g.node[data-ns^="research:"]').count();
  assert.ok(subgraphRows > 0, 'the subgraph run is drawn');
  await app.button(app.w.storageButton).click();
  const panel = app.page.getByRole('region', { name: app.w.storage, exact: true });
  await panel.getByRole('combobox', { name: app.w.prunePreview }).selectOption('latest');
  await app.page.waitForFunction(() => document.querySelectorAll('svg.dag .node.pruned').length > 0);
  // The run paused inside the subgraph: the latest root checkpoint owns it, so its
  // latest checkpoint stays with it; the older ones in that namespace are dropped.
  const keptInSubgraph = await app.page.locator('svg.dag g.node[data-ns^="research:"]:not(.pruned)').count();
  assert.equal(keptInSubgraph, 1);
  await app.audit('the storage view on a subgraph thread');
});

test('storage view: a long chat shows LangGraph savers rewriting the message list', async () => {
  const app = await open();
  for (let i = 1; i <= 12; i++) await app.send(`Turn ${i}: ${'a long message of a long conversation. '.repeat(6)}`);
  await app.button(app.w.storageButton).click();
  const panel = app.page.getByRole('region', { name: app.w.storage, exact: true });
  const [sqlite, postgres, chronograph] = (await panel.locator('.storage-legend strong').allTextContents()).map(parseBytes);
  // 12 turns, 48 checkpoints: every put rewrites the growing list for the SQLite
  // saver, every new version for the PostgreSQL one; Chronograph keeps new items.
  assert.ok(sqlite > 3 * chronograph && postgres > 2 * chronograph, `${sqlite}, ${postgres}, ${chronograph}`);
  await app.shot('storage-growth');
});
