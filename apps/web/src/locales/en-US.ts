/**
 * English catalog loaded at start: what the sign-in, not-found and error pages, the router and
 * the signed-in area's frame show. The signed-in screens' texts are in console.en-US.ts (loaded
 * with the shell) and device-types.en-US.ts (loaded with their screens); zh-CN has the same keys.
 */
import type { ConsoleCatalog } from './console.en-US';
import type { DeviceTypesCatalog } from './device-types.en-US';

export const enUS = {
  app: {
    name: 'Sluice',
    tagline: 'Cloud console for village wastewater-treatment stations',
    documentTitle: '{{title}} - Sluice',
  },
  common: {
    loading: 'Loading…',
    refresh: 'Refresh',
    backHome: 'Back home',
    save: 'Save',
    cancel: 'Cancel',
    empty: 'No data',
    retry: 'Try again',
    edit: 'Edit',
    delete: 'Delete',
    add: 'Add',
    back: 'Back',
    yes: 'Yes',
    no: 'No',
    all: 'All',
    close: 'Close',
  },
  language: {
    label: 'Language',
    zhCN: '中文',
    enUS: 'English',
  },
  theme: {
    dark: 'Dark theme',
  },
  routes: {
    login: 'Sign in',
    notFound: 'Page not found',
    home: 'Home',
    userInfo: 'User information',
    projects: 'All projects',
    stations: 'All stations',
    devices: 'All devices',
    noticeCenter: 'Notice Manager',
    dataDefine: 'Data definition library',
    dataDefineWarnCode: 'Linked data',
    category: 'Data definition tags',
    deviceType: 'Device type',
    appFile: 'Mobile app',
    warnType: 'Warn type',
    warnCode: 'Warn code',
    menu: 'Menu set',
    subMenu: 'Sub menu settings',
    areaSet: 'Area set',
    simboss: 'SIM management',
    boxData: 'Box data',
    permissionModule: 'Permission modules',
    role: 'Roles',
    userList: 'User list',
    clientList: 'Client list',
    principals: 'Operations staff',
    recycleBin: 'Device RecycleBin',
  },
  menu: {
    navigation: 'Main navigation',
    home: 'Home',
    projects: 'Projects',
    stations: 'Stations',
    devices: 'Devices',
    noticeManager: 'Notice Manager',
    noticeCenter: 'Notice center',
    userManager: 'User Manager',
    jurisdictionManager: 'Jurisdiction Manager',
    systemConfigure: 'System Configure',
    deviceManager: 'Device Manager',
  },
  shell: {
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    collapseMenu: 'Collapse menu',
    expandMenu: 'Expand menu',
    userMenu: 'User menu',
    breadcrumb: 'Breadcrumb',
    subMenuLoading: 'Sub menu loading…',
    noSubMenu: 'No sub menu',
    subMenuFailed: 'The sub menu could not be loaded',
    menuFailed: 'Your menu could not be loaded',
  },
  login: {
    heading: 'Sign in to Sluice',
    account: 'Account',
    password: 'Password',
    submit: 'Sign in',
  },
  notFound: {
    title: 'Sorry, this page does not exist',
    subTitle: 'Go back home, or refresh the page to try again.',
  },
  placeholder: {
    title: '{{title}} — coming soon',
    description: 'This screen is being built.',
  },
  forbidden: {
    title: 'No permission',
    description: 'Your roles do not include this screen. An administrator can add it to one of your roles.',
  },
  errors: {
    pageFailed: 'This page failed to load',
    pageFailedHint: 'Check your connection and refresh the page.',
    network: 'The server could not be reached',
  },
  rule: {
    required: 'Required',
    length: 'Length must be {{min}}–{{max}} characters',
    lettersAndDigits: 'Must contain both letters and digits',
    lettersOrDigits: 'Only letters and digits are allowed',
    mobile: 'Enter an 11-digit mainland mobile number',
    landline: 'Enter a landline as area code-number, e.g. 0755-12345678',
    phone: 'Enter a mobile number or a landline (area code-number)',
    fileVersion: 'Enter a version like V1.1.2 or v1.1.x',
    number: 'Please enter a number',
    email: 'Enter a valid e-mail address',
    passwordAgain: 'The two passwords differ',
    invalid: 'Invalid value',
    position: 'Enter a position as longitude,latitude, e.g. 113.8865,22.609985',
    deviceNo: 'A device number holds only letters, digits and _ . : -',
    areaCode: 'Enter an area code of 6 digits',
    shape: 'The shape must be a circle, a rectangle or a polygon',
    code: 'A code starts with a letter and holds letters, digits and _ . -',
    routerPath: 'The route path must start with / and hold only letters, digits and / _ : ? -',
    componentUrl: 'The component may hold only letters, digits and / _ -',
    routerRequired: 'A link menu needs a router definition with path and componentUrl',
    menuType: 'Menu type is 1 (link) or 0 (navigation)',
  },
};

/** The shape both catalogs share: the same nested keys, every leaf a string. */
export type BaseCatalog = typeof enUS;
/** Every key, with those of catalogs loaded later (lib/feature-catalogs.ts). */
export type Catalog = BaseCatalog & ConsoleCatalog & DeviceTypesCatalog;
