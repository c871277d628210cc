/**
 * The audit trail (issue 22): an administrator changes an operator's role in the user list and
 * finds the change — who, the roles before and after — from the user's History and from the
 * side menu, on a wide screen and on a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, openFromMenu, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Calls the API with the page's session (set-up that is not what the test is about). */
async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value ?? '';
  const response = await page.request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

test("an administrator changes an operator's role and finds the entry with the roles before and after", async ({ page }) => {
  const s = unique();
  const engineers = `Engineers ${s}`;
  const account = `op${s}`;
  const userName = `Operator ${s}`;

  await page.goto('/login');
  await signIn(page, ADMIN);
  const me = await api<{ GroupId: number }>(page, 'GET', '/user/myinfo');
  const roles = await api<{ Id: number; Name: string }[]>(page, 'GET', `/group/${String(me.GroupId)}/Role/AllRoles?PageSize=100`);
  const operatorRole = roles.find((role) => role.Name === 'Operator');
  if (!operatorRole) throw new Error('the demo group has no Operator role');
  await api(page, 'POST', `/group/${String(me.GroupId)}/Role`, { Name: engineers, IsAdmin: false });
  await api(page, 'POST', '/user/adduser', {
    Account: account,
    UserName: userName,
    Password: 'Operator123',
    PasswordAgain: 'Operator123',
    UserType: 0,
    RoleIds: [operatorRole.Id],
  });

  // The change: the operator's roles, in the user list.
  await page.goto('/user/list');
  await page.getByRole('searchbox', { name: 'Search' }).fill(account);
  await expect(page.getByRole('row', { name: new RegExp(userName) })).toBeVisible();
  await page.getByRole('button', { name: `Roles of ${userName}` }).click();
  const rolesDialog = page.getByRole('dialog', { name: `Roles of “${userName}”` });
  await rolesDialog.getByRole('checkbox', { name: 'Operator', exact: true }).uncheck();
  await rolesDialog.getByRole('checkbox', { name: engineers }).check();
  await rolesDialog.getByRole('button', { name: 'Save' }).click();
  await expect(rolesDialog).toBeHidden();

  // The user's History: the audit trail of that user, the change on top.
  await page.getByRole('button', { name: `History of ${userName}` }).click();
  await expect(page).toHaveURL(/\/sys\/audit\?ResourceKind=user&ResourceId=\d+/);
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const details = page.getByRole('button', { name: `Details of Changed User ${account}` }).first();
  await details.click();
  const drawer = page.getByRole('dialog', { name: `Changed: User ${account}` });
  const line = drawer.getByRole('row', { name: /Roles/ });
  await expect(line).toContainText('Operator');
  await expect(line).toContainText(engineers);
  await expect(line.getByText('changed')).toBeVisible();
  await expect(drawer.getByText(ADMIN.account, { exact: true })).toBeVisible();
  await expect(drawer.getByText('POST /api/UserRole/SaveUserRole')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();

  // From the side menu, filtered by action, account and search; then the details on a phone.
  await page.goto('/common/home');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('menuitem', { name: 'System Configure' }).click();
  await openFromMenu(page, 'Audit trail');
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Changed', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Account' }).fill(ADMIN.account);
  await page.getByRole('searchbox', { name: 'Search' }).fill(account);
  await expect(page.getByRole('button', { name: `Details of Changed User ${account}` }).first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole('button', { name: `Details of Changed User ${account}` })
    .first()
    .click();
  const phoneDrawer = page.getByRole('dialog', { name: `Changed: User ${account}` });
  const card = phoneDrawer.locator('.ant-card').filter({ hasText: 'Roles' });
  await expect(card).toContainText('Before: Operator');
  await expect(card).toContainText(`After: ${engineers}`);
});
