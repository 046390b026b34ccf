import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose, openUntilShown } from './antd';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
const api = adminApi(baseURL);
let browser: Browser;
let page: Page;
keepFailures('course', () => page);
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const chapter = `第一章 心电图基础 ${tag}`;
const link = `心电图判读要点 ${tag}`;
/** A published document of the document base, and the course item that shows it. */
const handbook = `心电图判读规范${tag}`;
const reading = `课前阅读 ${tag}`;
/** A trainee outside the course's audience (another type), enrolled by hand. */
const walkIn = `王五${tag}`;
let courseId: string;

beforeAll(async () => {
  const hospital = await api('POST', '/people/organization', {
    code: `CH${tag}`,
    name: `医院${tag}`,
    orgType: 'hospital',
  });
  const base = await api('POST', '/people/organization', {
    code: `CB${tag}`,
    name: `基地${tag}`,
    orgType: 'training_base',
    parentId: hospital.id,
  });
  const type = await api('POST', '/people/trainee-type', {
    code: `ct${tag}`,
    name: `规培${tag}`,
    category: 'residency',
  });
  const trainee = await api('POST', '/people/trainee', {
    name: `李四${tag}`,
    traineeTypeId: type.id,
    trainingBaseId: base.id,
    traineeNo: `C${tag}`,
  });
  await api('POST', `/people/trainee/${trainee.id}/transition`, {
    to: 'in_training',
    reason: '报到',
    effectiveDate: '2026-09-01',
    version: trainee.version,
  });
  // a trainee of another type: not assigned with the audience, enrolled by hand
  const otherType = await api('POST', '/people/trainee-type', {
    code: `cx${tag}`,
    name: `进修${tag}`,
    category: 'residency',
  });
  const other = await api('POST', '/people/trainee', {
    name: walkIn,
    traineeTypeId: otherType.id,
    trainingBaseId: base.id,
    traineeNo: `W${tag}`,
  });
  await api('POST', `/people/trainee/${other.id}/transition`, {
    to: 'in_training',
    reason: '报到',
    effectiveDate: '2026-09-01',
    version: other.version,
  });
  const library = await api('POST', '/content/document-base', {
    code: `cl${tag}`,
    name: `教学资料${tag}`,
    visibility: 'tenant',
  });
  const document = await api('POST', '/content/document', {
    baseId: library.id,
    title: handbook,
    contentHtml: '<p>窦性心律：P 波在 I、II、aVF 导联直立</p>',
  });
  await api('POST', `/content/document/${document.id}/publish`, { version: document.version });
  const course = await api('POST', '/teaching/course', {
    code: `ECG-${tag}`,
    title: `心电图入门 ${tag}`,
    audienceTraineeTypeIds: [type.id],
  });
  courseId = course.id;

  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
});
afterAll(() => browser?.close());

/** The error or success message the console shows. */
const toast = (text: string | RegExp) => page.locator('.ant-message-notice', { hasText: text });

describe('A course in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('writes a chapter and a link in it on the course’s item list, and the outline nests them', async () => {
    await page.goto(`${baseURL}/#/teach/course/item/list?courseId=${courseId}`);
    const list = page.getByTestId('teaching-course-item');
    await list.getByTestId('table-create').click();
    await choose(page, 'form-itemType', '章节');
    await page.getByTestId('form-title').fill(chapter);
    await page.getByTestId('resource-form-submit').click();
    await expect.poll(() => list.locator('tr', { hasText: chapter }).count(), { timeout: 15_000 }).toBe(1);

    await list.getByTestId('table-create').click();
    await choose(page, 'form-itemType', '链接');
    await page.getByTestId('form-title').fill(link);
    // the chapter picker offers the course's chapters (it read a page the API refused, and offered none)
    await choose(page, 'form-parentId', chapter);
    await page.getByTestId('form-url').fill('https://example.org/ecg');
    await page.getByTestId('resource-form-submit').click();
    const row = list.locator('tr', { hasText: link });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);

    const outline = page.getByTestId('course-outline');
    const chapterNode = outline.locator('.ant-tree-treenode', { hasText: chapter });
    const linkNode = outline.locator('.ant-tree-treenode', { hasText: link });
    await expect.poll(() => linkNode.count(), { timeout: 15_000 }).toBe(1);
    // nested: the link's node is indented one level deeper than its chapter's
    const indent = (node: typeof linkNode) => node.locator('.ant-tree-indent-unit').count();
    expect(await indent(linkNode)).toBe((await indent(chapterNode)) + 1);
  });

  it('adds a published document of the document base as an item, and the outline shows it', async () => {
    await page.goto(`${baseURL}/#/teach/course/item/list?courseId=${courseId}`);
    const list = page.getByTestId('teaching-course-item');
    await openUntilShown(page, list.getByTestId('item-from-library'), 'form-documentId');
    await page.getByTestId('form-title').fill(reading);
    // the picker finds the base's published documents by the words typed
    const picked = page
      .locator('.ant-form-item', { has: page.getByTestId('form-documentId') })
      .locator('.ant-select-selection-item');
    const option = page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: handbook });
    await expect
      .poll(
        async () => {
          if ((await picked.count()) === 0) {
            await page.getByTestId('form-documentId').click({ timeout: 5_000 });
            await page.keyboard.press('ControlOrMeta+A');
            await page.keyboard.type(handbook);
            await option
              .first()
              .click({ timeout: 5_000 })
              .catch(() => undefined);
          }
          return (await picked.count()) > 0 ? ((await picked.first().textContent()) ?? '') : '';
        },
        { timeout: 30_000 },
      )
      .toContain(handbook);
    await page.getByTestId('resource-form-submit').click();

    const row = list.locator('tr', { hasText: reading });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('文档');
    const outline = page.getByTestId('course-outline');
    await expect
      .poll(() => outline.locator('.ant-tree-treenode', { hasText: reading }).count(), { timeout: 15_000 })
      .toBe(1);

    const { data } = await api('GET', `/teaching/course-item?courseId=${courseId}`);
    expect(data.find((item: { title: string }) => item.title === reading)).toMatchObject({
      itemType: 'document',
      documentTitle: handbook,
      fileId: null,
    });
  });

  it('is refused publication with its reason while no item is published, then published and assigned', async () => {
    await page.goto(`${baseURL}/#/teach/course/${courseId}/profile/`);
    const profile = page.getByTestId('course-profile');
    await expect.poll(() => profile.getByTestId('course-outline').textContent(), { timeout: 15_000 }).toContain(link);
    await profile.getByTestId('course-profile-publish').click();
    // the refusal says why, not only "the request is invalid"
    await expect.poll(() => toast('请先发布其中一项').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    await page.goto(`${baseURL}/#/teach/course/item/list?courseId=${courseId}`);
    const row = page.getByTestId('teaching-course-item').locator('tr', { hasText: link });
    await row.getByTestId('item-publish').click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('已发布');

    await page.goto(`${baseURL}/#/teach/course/${courseId}/profile/`);
    await profile.getByTestId('course-profile-publish').click();
    await profile.getByTestId('course-profile-assign').click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => toast('新加入 1 名学员').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const enrolments = profile.getByTestId('course-enrolments');
    await expect.poll(() => enrolments.textContent(), { timeout: 15_000 }).toContain(`李四${tag}`);
  });

  it('enrols a trainee outside its audience by hand on its profile, and lists them with the others', async () => {
    await page.goto(`${baseURL}/#/teach/course/${courseId}/profile/`);
    const enrolments = page.getByTestId('course-profile').getByTestId('course-enrolments');
    await expect.poll(() => enrolments.textContent(), { timeout: 15_000 }).toContain(`李四${tag}`);
    // the picker finds trainees in training by the name typed
    const pick = enrolments.getByTestId('enrolment-pick');
    const chosen = pick.locator('.ant-select-selection-item', { hasText: walkIn });
    const option = page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: walkIn });
    await expect
      .poll(
        async () => {
          if ((await chosen.count()) === 0) {
            await pick.click({ timeout: 5_000 });
            await page.keyboard.type(walkIn);
            await option
              .first()
              .click({ timeout: 5_000 })
              .catch(() => undefined);
          }
          return chosen.count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.keyboard.press('Escape');
    await enrolments.getByTestId('enrolment-add').click();

    const row = enrolments.locator('tbody tr', { hasText: walkIn });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain(`W${tag}`);
    await expect.poll(() => enrolments.locator('.ant-card-head-title').textContent()).toContain('(2)');
    // the pick is cleared for the next one
    await expect.poll(() => pick.locator('.ant-select-selection-item').count()).toBe(0);
  });
});
