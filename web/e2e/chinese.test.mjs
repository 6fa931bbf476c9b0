// The app in Simplified Chinese (?lang=zh): the seed walkthrough and the whole lesson
// with Chinese accessible names, screenshots with real glyphs (the test set-up installs
// fonts-noto-cjk), and a language switch in the middle of a session that keeps the
// tree, the selection and the lesson position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';
import { lessonTour, seedWalkthrough } from './walkthrough.mjs';

const open = suite();

test('?lang=zh: the seed walkthrough in Chinese', async () => {
  const app = await open(undefined, undefined, 'zh');
  assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await app.page.title(), 'Chronograph · 检查点树');
  await seedWalkthrough(app, 'zh-');
  // Engine identifiers stay as LangGraph writes them.
  await app.select('c11');
  await app.inspector.getByText('"source":"update"', { exact: false }).waitFor();
  const log = await app.logLines();
  assert.ok(log.includes('invoke(None, c11) → c12'), log.join('\n'));
});

test('?lang=zh: the whole lesson in Chinese', async () => {
  const app = await open(undefined, undefined, 'zh');
  await lessonTour(app, { prefix: 'zh-' });
});

test('switching the language keeps the tree, the selection and the lesson position', async () => {
  const app = await open();
  const lesson = app.page.getByRole('region', { name: 'Lesson' });
  await app.button('Lesson ▸').click();
  await lesson.getByRole('button', { name: 'Start the lesson' }).click();
  // Step 1 in English, answered and run.
  await lesson.getByRole('heading', { name: /^1\. / }).waitFor();
  const groups = lesson.getByRole('group');
  for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).getByRole('radio').first().check();
  await lesson.getByRole('button', { name: 'Run step' }).click();
  await lesson.getByRole('button', { name: 'Next step' }).click();
  await lesson.getByRole('heading', { name: /^2\. / }).waitFor();
  await app.select('c5');
  const before = await app.count();

  await app.page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
  app.useLang('zh');
  await app.page.getByRole('region', { name: '课程' }).getByRole('heading', { name: '2. 重新生成第一条回复' }).waitFor();
  assert.equal(await app.count(), before, 'the tree stays');
  assert.equal(await app.selectedLabel(), 'c5', 'the selection stays');
  assert.equal(await app.name('c5'), '检查点 c5，step 4，loop，next：booking');
  assert.match(app.page.url(), /lang=zh/, 'the URL names the language');
  await app.shot('zh-switch');

  // The lesson goes on in Chinese from where it was, to its end.
  await lessonTour(app, { from: 1 });

  // And back: the reload keeps the choice (saved), the English words return on a switch.
  await app.page.reload();
  await app.page.getByRole('combobox', { name: '语言' }).waitFor();
  await app.page.getByRole('combobox', { name: '语言' }).selectOption('en');
  app.useLang('en');
  await app.page.getByRole('combobox', { name: 'Scenario' }).waitFor();
  assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'en');
});
