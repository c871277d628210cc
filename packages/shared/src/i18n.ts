/** Languages of the product and the messages the server sends, in both of them. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Picks a supported language from a cookie value or an Accept-Language header. */
export function pickLanguage(...candidates: (string | undefined | null)[]): Language {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(',')) {
      const tag = (part.split(';')[0] ?? '').trim().toLowerCase();
      if (tag.startsWith('zh')) return 'zh-CN';
      if (tag.startsWith('en')) return 'en-US';
    }
  }
  return DEFAULT_LANGUAGE;
}

type Catalog = Record<string, string>;

const en = {
  ok: 'OK',
  'auth.badCredentials': 'Wrong account or password',
  'auth.locked': 'Too many failed attempts; try again in {seconds} seconds',
  'auth.required': 'Please sign in',
  'auth.expired': 'Your session has expired; please sign in again',
  'auth.disabled': 'This account is disabled',
  'auth.inactive': 'This account is not activated yet',
  'auth.forbidden': 'You are not permitted to do this',
  'auth.otherGroup': 'You may not reach another group’s data',
  'auth.loggedOut': 'Signed out',
  'auth.wrongOldPassword': 'The old password is wrong',
  'auth.passwordChanged': 'Password changed; please sign in again',
  'auth.registered': 'Registered; an administrator must activate the account',
  'error.notFound': 'Not found',
  'error.routeNotFound': 'No such call: {method} {url}',
  'error.internal': 'Something went wrong on the server; it has been logged',
  'error.validation': 'Invalid input',
  'error.conflict': 'Already exists',
  'error.tooLarge': 'The upload is too large (limit {limit})',
  'error.badFileType': 'Wrong file type: only {types} are supported',
  'error.noFile': 'No file was uploaded',
  'error.tooManyRequests': 'Too many requests; slow down',
  'account.exists': 'The account “{account}” is already taken',
  'group.exists': 'A group named “{name}” already exists',
  'group.codeUnknown': 'No group has the code “{code}”',
  'saved': 'Saved',
  'created': 'Created',
  'deleted': 'Deleted',
  'rule.required': 'Required',
  'rule.length': 'Length must be {min}–{max} characters',
  'rule.lettersAndDigits': 'Must contain both letters and digits',
  'rule.lettersOrDigits': 'Only letters and digits are allowed',
  'rule.mobile': 'Enter an 11-digit mainland mobile number',
  'rule.landline': 'Enter a landline as area code-number, e.g. 0755-12345678',
  'rule.phone': 'Enter a mobile number or a landline (area code-number)',
  'rule.fileVersion': 'Enter a version like V1.1.2 or v1.1.x',
  'rule.number': 'Please enter a number',
  'rule.email': 'Enter a valid e-mail address',
  'rule.passwordAgain': 'The two passwords differ',
  'rule.sortable': 'Cannot sort by that; sortable: {columns}',
  'rule.routerPath': 'The route path must start with / and hold only letters, digits and / _ : ? -',
  'rule.componentUrl': 'The component may hold only letters, digits and / _ -',
  'rule.routerRequired': 'A link menu needs a router definition with path and componentUrl',
  'rule.menuType': 'Menu type is 1 (link) or 0 (navigation)',
  'rule.code': 'A code starts with a letter and holds letters, digits and _ . -',
  'user.notYourself': 'You cannot do this to your own account',
  'user.lastAdmin': 'The last administrator of the group cannot be removed, disabled or demoted',
  'role.inUse': 'The role “{name}” is still assigned to users',
  'module.exists': 'A module or operate with code “{name}” already exists',
  'client.exists': 'A client numbered “{name}” already exists',
  'role.exists': 'A role named “{name}” already exists',
  'menu.hasChildren': 'Delete the sub-menus first',
  'menu.badParent': 'The parent menu must be a navigation menu of this group, and not the menu itself',
  'ref.unknown': 'No such {what}: {id}',
} satisfies Catalog;

export type MessageKey = keyof typeof en;

const zh: Record<MessageKey, string> = {
  ok: '成功',
  'auth.badCredentials': '账号或密码错误',
  'auth.locked': '失败次数过多，请 {seconds} 秒后再试',
  'auth.required': '请先登录',
  'auth.expired': '登录已过期，请重新登录',
  'auth.disabled': '该账号已被禁用',
  'auth.inactive': '该账号尚未激活',
  'auth.forbidden': '您没有执行此操作的权限',
  'auth.otherGroup': '不能访问其他集团的数据',
  'auth.loggedOut': '已退出登录',
  'auth.wrongOldPassword': '原密码错误',
  'auth.passwordChanged': '密码已修改，请重新登录',
  'auth.registered': '注册成功，需管理员激活账号',
  'error.notFound': '未找到',
  'error.routeNotFound': '没有这个接口：{method} {url}',
  'error.internal': '服务器出错，已记录日志',
  'error.validation': '输入有误',
  'error.conflict': '已存在',
  'error.tooLarge': '上传文件过大（上限 {limit}）',
  'error.badFileType': '文件类型错误：仅支持 {types}',
  'error.noFile': '没有上传文件',
  'error.tooManyRequests': '请求过于频繁，请稍后再试',
  'account.exists': '账号“{account}”已被使用',
  'group.exists': '集团“{name}”已存在',
  'group.codeUnknown': '没有编码为“{code}”的集团',
  saved: '已保存',
  created: '已创建',
  deleted: '已删除',
  'rule.required': '必填',
  'rule.length': '长度为 {min}–{max} 个字符',
  'rule.lettersAndDigits': '必须同时包含字母和数字',
  'rule.lettersOrDigits': '只能输入字母或数字',
  'rule.mobile': '请输入正确的 11 位手机号码',
  'rule.landline': '请输入正确的座机号码，如 0755-12345678',
  'rule.phone': '请输入正确的手机号码或座机号码（区号-号码）',
  'rule.fileVersion': '请输入正确的版本号，如 V1.1.2 或 v1.1.x',
  'rule.number': '请输入数字',
  'rule.email': '请输入正确的邮箱地址',
  'rule.passwordAgain': '两次输入的密码不一致',
  'rule.sortable': '不能按此排序；可排序字段：{columns}',
  'rule.routerPath': '路由路径须以 / 开头，只能包含字母、数字及 / _ : ? -',
  'rule.componentUrl': '组件地址只能包含字母、数字及 / _ -',
  'rule.routerRequired': '链接菜单需要包含 path 和 componentUrl 的路由定义',
  'rule.menuType': '菜单类型为 1（链接）或 0（导航）',
  'rule.code': '编码以字母开头，只能包含字母、数字及 _ . -',
  'user.notYourself': '不能对自己的账号执行此操作',
  'user.lastAdmin': '不能删除、禁用或降级集团的最后一位管理员',
  'role.inUse': '角色“{name}”仍分配给用户',
  'module.exists': '编码为“{name}”的模块或操作已存在',
  'client.exists': '编号为“{name}”的客户已存在',
  'role.exists': '名为“{name}”的角色已存在',
  'menu.hasChildren': '请先删除子菜单',
  'menu.badParent': '上级菜单须为本集团的导航菜单，且不能是菜单本身',
  'ref.unknown': '不存在的{what}：{id}',
};

export const serverCatalogs: Record<Language, Record<MessageKey, string>> = { 'en-US': en, 'zh-CN': zh };

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

export function translate(
  lang: Language,
  key: MessageKey,
  params: Record<string, string | number> = {},
): string {
  const template = serverCatalogs[lang][key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
