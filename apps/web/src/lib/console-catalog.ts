/**
 * Adds the signed-in screens' texts (locales/console.*.ts) to i18next. The shell imports this
 * module, so the texts load with the shell's code, before any signed-in screen renders, and the
 * sign-in page does not carry them. Both languages load together: switching stays instant.
 */
import { consoleEnUS } from '../locales/console.en-US';
import { consoleZhCN } from '../locales/console.zh-CN';
import { i18n } from './i18n';

// Sections of their own, so no deep merge (which would write into the start-up catalog objects).
i18n.addResourceBundle('en-US', 'translation', consoleEnUS, false, false);
i18n.addResourceBundle('zh-CN', 'translation', consoleZhCN, false, false);
