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
