import { useState } from 'react';
import { Alert, Button, Form, Input, theme } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../../components/brand';
import { LanguageSwitch } from '../../../components/language-switch';
import { errorMessage } from '../../../lib/form-errors';
import { safeRedirect } from '../../../lib/paths';
import { signIn } from '../../../lib/session';

interface Credentials {
  Account: string;
  Password: string;
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

  const onFinish = async (values: Credentials) => {
    setError(undefined);
    setSubmitting(true);
    try {
      await signIn({ Account: values.Account.trim(), Password: values.Password });
      await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setSubmitting(false);
    }
  };

  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '72px 16px 32px',
        boxSizing: 'border-box',
        position: 'relative',
      }}
    >
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch />
      </div>
      {/* A plain panel rather than Card/Typography keeps the sign-in page's code small. */}
      <section
        aria-labelledby="login-heading"
        style={{
          width: '100%',
          maxWidth: 400,
          padding: 32,
          boxSizing: 'border-box',
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <Brand size={44} />
          <p style={{ margin: '8px 0 0', color: token.colorTextSecondary }}>{t('app.tagline')}</p>
        </div>
        <h1 id="login-heading" style={{ fontSize: 20, fontWeight: 600, margin: '0 0 20px', color: token.colorText }}>
          {t('login.heading')}
        </h1>
        {notice && !error && <Alert type="success" showIcon title={notice} style={{ marginBottom: 16 }} />}
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form<Credentials> layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
          <Form.Item label={t('login.account')} name="Account" rules={[{ required: true, whitespace: true, message: t('rule.required') }]}>
            <Input prefix={<UserOutlined aria-hidden />} autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item label={t('login.password')} name="Password" rules={[{ required: true, message: t('rule.required') }]}>
            <Input.Password prefix={<LockOutlined aria-hidden />} autoComplete="current-password" size="large" />
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
              {t('login.submit')}
            </Button>
          </Form.Item>
        </Form>
      </section>
    </main>
  );
}
