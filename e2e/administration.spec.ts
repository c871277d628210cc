import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, choose, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

/** A suffix that keeps each test's records apart from every other run's. */
function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Calls the API with the page's session (for set-up that is not what the test is about). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value ?? '';
  const response = await page.request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as { data: unknown };
}

async function signedInPage(browser: Browser, user: { account: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, user);
  return page;
}

/** The open dialog with this title. */
function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** Picks an option of an Ant Design select found by its label. */

test('a role with a limited menu, one operate and one project: its user sees only that, and is refused once disabled', async ({
  page,
  browser,
}) => {
  const s = unique();
  const roleName = `Viewer ${s}`;
  const account = `viewer${s}`;
  const userName = `Viewer User ${s}`;

  await page.goto('/login');
  await signIn(page, ADMIN);

  // The role.
  await page.goto('/jurisdiction/role');
  await page.getByRole('button', { name: 'Add role' }).click();
  const addRole = dialog(page, 'Add role');
  await addRole.getByLabel('Role name').fill(roleName);
  await addRole.getByRole('button', { name: 'Save' }).click();
  await expect(addRole).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(roleName);
  await expect(page.getByRole('row', { name: new RegExp(roleName) })).toBeVisible();

  // Its permissions: an operate, two menus, one project.
  await page.getByRole('button', { name: `Permissions of ${roleName}` }).click();
  const drawer = page.getByRole('dialog', { name: `Permissions of “${roleName}”` });
  await drawer.getByRole('checkbox', { name: /View clients/ }).check();
  await drawer.getByRole('button', { name: 'Save operates' }).click();
  await expect(page.getByText('Operates saved')).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Save operates' })).toBeDisabled();

  await drawer.getByRole('tab', { name: 'Menus' }).click();
  await drawer.getByRole('checkbox', { name: 'Home', exact: true }).check();
  await drawer.getByRole('checkbox', { name: 'Client list', exact: true }).check();
  await drawer.getByRole('button', { name: 'Save menus' }).click();
  await expect(drawer.getByRole('button', { name: 'Save menus' })).toBeDisabled();

  await drawer.getByRole('tab', { name: 'Projects' }).click();
  await drawer.getByRole('checkbox', { name: 'Grant 青山镇' }).check();
  await drawer.getByRole('button', { name: 'Save projects' }).click();
  await expect(drawer.getByRole('button', { name: 'Save projects' })).toBeDisabled();
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The user, with that role.
  await page.goto('/user/list');
  await page.getByRole('button', { name: 'Add user' }).click();
  const addUser = dialog(page, 'Add user');
  // The user type's choices (normal or administrator account) hold the word too.
  await addUser.getByRole('textbox', { name: 'Account' }).fill(account);
  await addUser.getByLabel('Name').fill(userName);
  await addUser.getByLabel('Password', { exact: true }).fill('Viewer12345');
  await addUser.getByLabel('Confirm password').fill('Viewer12345');
  // The role is picked in the same dialog.
  await choose(page, addUser.getByLabel('Roles'), roleName);
  await addUser.getByRole('button', { name: 'Save' }).click();
  await expect(addUser).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(account);
  await expect(page.getByRole('row', { name: new RegExp(account) }).getByText(roleName)).toBeVisible();

  // The user sees only those menus.
  const viewer = await signedInPage(browser, { account, password: 'Viewer12345' });
  const nav = viewer.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  await nav.getByRole('menuitem', { name: 'User Manager' }).click();
  await expect(nav.getByRole('link', { name: 'Client list' })).toBeVisible();
  for (const hidden of ['User list', 'Operations staff', 'Stations', 'Jurisdiction Manager', 'System Configure']) {
    await expect(nav.getByText(hidden, { exact: true })).toHaveCount(0);
  }
  await nav.getByRole('link', { name: 'Client list' }).click();
  await expect(viewer.getByRole('heading', { name: 'Client list' })).toBeVisible();
  await expect(viewer.getByText('安吉县水务有限公司')).toBeVisible();
  // The role may view clients, not manage them: no add, edit or delete.
  await expect(viewer.getByRole('button', { name: 'Add client' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^(Edit|Delete) / })).toHaveCount(0);

  // An administrator page by its address: not permitted.
  await viewer.goto('/user/list');
  await expect(viewer.getByText('No permission')).toBeVisible();
  await expect(viewer.getByRole('heading', { name: 'User list' })).toHaveCount(0);

  // Disabled: the user's next request is refused and they land on sign-in.
  // Disabling signs the user out, so it asks first.
  await page.getByRole('switch', { name: `Let ${userName} sign in` }).click();
  await dialog(page, `Stop ${userName} signing in?`).getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('row', { name: new RegExp(account) }).getByText('Disabled')).toBeVisible();
  await viewer.goto('/user/clientList');
  await expect(viewer).toHaveURL(/\/login/);
  await expect(viewer.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await viewer.context().close();
});

test('the user list searches and filters by status', async ({ page }) => {
  const s = unique();
  await page.goto('/login');
  await signIn(page, ADMIN);
  for (const letter of ['a', 'b']) {
    await api(page, 'POST', '/user/adduser', {
      Account: `find${s}${letter}`,
      UserName: `Find ${letter}`,
      Password: 'Find12345',
      PasswordAgain: 'Find12345',
    });
  }
  const users = (await api(page, 'GET', `/user?Search=find${s}b`)).data as { Id: number }[];
  await api(page, 'PUT', '/user/status', { Id: users[0]?.Id, Status: 2 });

  await page.goto('/user/list');
  await page.getByRole('searchbox', { name: 'Search' }).fill(`find${s}`);
  await expect(page.getByRole('row', { name: new RegExp(`find${s}a`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`find${s}b`) })).toBeVisible();
  await expect(page.getByText('2 in all')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`q=find${s}`));

  await choose(page, page.getByRole('combobox', { name: 'Status' }), 'Disabled');
  await expect(page.getByRole('row', { name: new RegExp(`find${s}a`) })).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(`find${s}b`) })).toBeVisible();
  await expect(page.getByText('1 in all')).toBeVisible();

  // The list's state is in the address: a reload shows the same list.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(`find${s}`);
  await expect(page.getByRole('row', { name: new RegExp(`find${s}b`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`find${s}a`) })).toHaveCount(0);
});

test('a client with a bad landline shows the field’s error, and saves once fixed', async ({ page }) => {
  const s = unique();
  const name = `Town ${s}`;
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/user/clientList');
  await page.getByRole('button', { name: 'Add client' }).click();
  const add = dialog(page, 'Add client');
  await add.getByLabel('Client name').fill(name);
  await add.getByLabel('Landline').fill('12345678');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByText('Enter a landline as area code-number, e.g. 0755-12345678')).toBeVisible();

  await add.getByLabel('Landline').fill('0572-1234567');
  await expect(add.getByText('Enter a landline as area code-number, e.g. 0755-12345678')).toBeHidden();
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(s);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText('0572-1234567')).toBeVisible();
});

test('a menu added under a navigation menu appears in the tree, its sub menus and the side menu', async ({ page }) => {
  const s = unique();
  const name = `Report ${s}`;
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/sys/menu');
  await page.getByRole('button', { name: 'Add a sub-menu to User Manager' }).click();
  const add = dialog(page, 'Add menu');
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Route path').fill(`/reports/r${s}`);
  await add.getByLabel('Component').fill('reports/daily');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();

  // In the tree, under User Manager (after its three seeded links).
  const rows = page.getByRole('row');
  const names = await rows.allInnerTexts();
  const parentIndex = names.findIndex((text) => text.startsWith('User Manager'));
  const childIndex = names.findIndex((text) => text.includes(name));
  expect(parentIndex).toBeGreaterThan(0);
  expect(childIndex).toBeGreaterThan(parentIndex);
  await expect(page.getByRole('row', { name: new RegExp(name) }).getByText('Unknown component')).toBeVisible();

  // Among User Manager's sub menus; Back returns to the menu set.
  await page.getByRole('link', { name: 'Sub menus of User Manager' }).click();
  await expect(page.getByRole('heading', { name: 'Sub menus of “User Manager”' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/sys\/menu$/);

  // In the side menu, leading to a clear page for a component the console does not have.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('menuitem', { name: 'User Manager' }).click();
  // The sub menu is fetched on opening; click once it has arrived and the group has opened.
  await expect(nav.getByText('Sub menu loading…')).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Operations staff' })).toBeInViewport();
  await nav.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/r${s}$`));
  await expect(page.getByRole('heading', { name: `“${name}” is not available in this console` })).toBeVisible();
});
