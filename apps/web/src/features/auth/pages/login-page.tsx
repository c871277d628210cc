import { useState, type ChangeEvent, type ReactNode, type SyntheticEvent } from 'react';
import { Alert, Button, Input, theme } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../../components/brand';
import { AuthPanel } from '../components/auth-panel';
import { errorMessage } from '../../../lib/form-errors';
import type { MessageKey } from '../../../lib/i18n';
import { REGISTER_PATH, safeRedirect } from '../../../lib/paths';
import { signIn } from '../../../lib/session';

interface Credentials {
  Account: string;
  Password: string;
}

type Problems = Partial<Record<keyof Credentials, MessageKey>>;

const INPUT_IDS: Record<keyof Credentials, string> = { Account: 'login-account', Password: 'login-password' };

function problemsOf(values: Credentials): Problems {
  return {
    ...(values.Account.trim() === '' ? { Account: 'rule.required' as const } : {}),
    ...(values.Password === '' ? { Password: 'rule.required' as const } : {}),
  };
}

/**
 * A labelled field with its problem under it, laid out as Ant Design's vertical form items. (Two
 * fields need no form library: Form with its validator and tooltips would add some 25 kB gzip to
 * the sign-in page.)
 */
function Field({
  id,
  label,
  problem,
  children,
}: {
  id: string;
  label: string;
  problem: string | undefined;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: token.marginLG }}>
      <label
        htmlFor={id}
        style={{ display: 'block', paddingBottom: token.paddingXS, color: token.colorText, fontSize: token.fontSize }}
      >
        {label}
      </label>
      {children}
      {problem && (
        <div
          id={`${id}-problem`}
          role="alert"
          style={{ color: token.colorError, fontSize: token.fontSize, lineHeight: token.lineHeight, marginTop: 2 }}
        >
          {problem}
        </div>
      )}
    </div>
  );
}

function noticeFrom(state: unknown): string | undefined {
  if (state && typeof state === 'object' && 'notice' in state && typeof state.notice === 'string') return state.notice;
  return undefined;
}

/** /login: account and password, the brand, and a language switch. */
export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const notice = noticeFrom(location.state);
  const [values, setValues] = useState<Credentials>({ Account: '', Password: '' });
  // Problems show once the user has tried to sign in, then follow what they type.
  const [checked, setChecked] = useState(false);
  const shown: Problems = checked ? problemsOf(values) : {};

  /** What both inputs take: their value, their id and, once checked, their problem. */
  const bind = (field: keyof Credentials) => ({
    id: INPUT_IDS[field],
    name: field,
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
    },
    status: shown[field] ? ('error' as const) : undefined,
    'aria-invalid': shown[field] ? true : undefined,
    'aria-describedby': shown[field] ? `${INPUT_IDS[field]}-problem` : undefined,
  });

  const signInWith = async (credentials: Credentials) => {
    setError(undefined);
    setSubmitting(true);
    try {
      await signIn({ Account: credentials.Account.trim(), Password: credentials.Password });
      await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setSubmitting(false);
    }
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    const problems = problemsOf(values);
    const first = (['Account', 'Password'] as const).find((field) => problems[field] !== undefined);
    if (first) {
      document.getElementById(INPUT_IDS[first])?.focus();
      return;
    }
    void signInWith(values);
  };

  return (
    <AuthPanel headingId="login-heading" maxWidth={400}>
      <div style={{ textAlign: 'center', marginBottom: 24 }}>
        <Brand size={44} />
        <p style={{ margin: '8px 0 0', color: token.colorTextSecondary }}>{t('app.tagline')}</p>
      </div>
      <h1 id="login-heading" style={{ fontSize: 20, fontWeight: 600, margin: '0 0 20px', color: token.colorText }}>
        {t('login.heading')}
      </h1>
      {notice && !error && <Alert type="success" showIcon title={notice} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <form noValidate onSubmit={submit}>
        <Field id={INPUT_IDS.Account} label={t('login.account')} problem={shown.Account && t(shown.Account)}>
          <Input {...bind('Account')} prefix={<UserOutlined aria-hidden />} autoComplete="username" autoFocus size="large" />
        </Field>
        <Field id={INPUT_IDS.Password} label={t('login.password')} problem={shown.Password && t(shown.Password)}>
          <Input.Password
            {...bind('Password')}
            prefix={<LockOutlined aria-hidden />}
            autoComplete="current-password"
            size="large"
          />
        </Field>
        <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
          {t('login.submit')}
        </Button>
      </form>
      <p style={{ margin: '16px 0 0', textAlign: 'center', color: token.colorTextSecondary }}>
        {t('login.noAccount')} <Link to={REGISTER_PATH}>{t('login.register')}</Link>
      </p>
    </AuthPanel>
  );
}
