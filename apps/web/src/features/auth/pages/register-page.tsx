/**
 * /register (spec §2, §7 user/Register): join a group by its code. The account is created
 * inactive; the group's administrator activates it (or refuses it) from the user list. The server
 * answers the same whether or not the code and account were usable, so the page says what happens
 * next and returns to sign-in, where that answer shows.
 */
import { useState } from 'react';
import { Alert, Button, Form, Input, theme } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { registerRequest } from '@sluice/shared/account.schema';
import { Brand } from '../../../components/brand';
import { AuthPanel } from '../components/auth-panel';
import { api } from '../../../lib/api-client';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { LOGIN_PATH } from '../../../lib/paths';
import { matchesField, zodRules } from '../../../lib/zod-form';

interface Registration {
  Code: string;
  Account: string;
  UserName: string;
  Phone?: string;
  Email?: string;
  Password: string;
  PasswordAgain: string;
}

const FIELDS = ['Code', 'Account', 'UserName', 'Phone', 'Email', 'Password', 'PasswordAgain'] as const;

export function RegisterPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [form] = Form.useForm<Registration>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: Registration) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await api.post<null>('/user/Register', {
        ...values,
        Code: values.Code.trim(),
        Account: values.Account.trim(),
        UserName: values.UserName.trim(),
        Phone: values.Phone?.trim() ?? '',
        Email: values.Email?.trim() ?? '',
      });
      await navigate(LOGIN_PATH, { replace: true, state: { notice: res.message } });
    } catch (failure) {
      if (!applyServerFieldErrors(form, failure, FIELDS)) setError(errorMessage(failure));
      setSubmitting(false);
    }
  };

  return (
    <AuthPanel headingId="register-heading" maxWidth={440}>
      <div style={{ textAlign: 'center', marginBottom: 16 }}>
        <Brand size={40} />
      </div>
      <h1 id="register-heading" style={{ fontSize: 20, fontWeight: 600, margin: '0 0 8px', color: token.colorText }}>
        {t('register.heading')}
      </h1>
      <p style={{ margin: '0 0 16px', color: token.colorTextSecondary }}>{t('register.intro')}</p>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<Registration> form={form} name="register" layout="vertical" onFinish={(v) => void onFinish(v)} requiredMark>
        <Form.Item
          label={t('register.code')}
          name="Code"
          extra={t('register.codeHelp')}
          rules={zodRules(registerRequest, 'Code')}
        >
          <Input autoComplete="organization" autoFocus />
        </Form.Item>
        <Form.Item label={t('login.account')} name="Account" rules={zodRules(registerRequest, 'Account')}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item label={t('register.userName')} name="UserName" rules={zodRules(registerRequest, 'UserName')}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label={t('register.phone')} name="Phone" rules={zodRules(registerRequest, 'Phone')}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item label={t('register.email')} name="Email" rules={zodRules(registerRequest, 'Email')}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label={t('login.password')} name="Password" rules={zodRules(registerRequest, 'Password')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={t('register.passwordAgain')}
          name="PasswordAgain"
          dependencies={['Password']}
          rules={[{ required: true, message: t('rule.required') }, matchesField('Password')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
          {t('register.submit')}
        </Button>
      </Form>
      <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
        <Link to={LOGIN_PATH}>{t('register.toLogin')}</Link>
      </p>
    </AuthPanel>
  );
}
