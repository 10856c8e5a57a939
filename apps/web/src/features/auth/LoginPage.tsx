import { GoogleOutlined, MailOutlined } from '@ant-design/icons';
import { AUTH_GOOGLE_PATH, authConfig, authDevLogin } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Divider, Form, Input } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client';
import { callQuery } from '../../shared/api/queries';
import { PATHS } from '../../shared/paths';
import { apiBase } from '../../shared/prefix';
import { Busy } from '../../shared/ui/Busy';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { AuthFrame } from './AuthFrame';
import styles from './auth.module.css';
import { REFERRAL_PARAM, rememberReferralCode } from './referral';
import { useSession } from './session';
import { useAfterSignIn } from './useAfterSignIn';

/** Sign-in: Google when the server offers it, the e-mail form of dev sign-in when that is on (design "Operator interface"). */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const session = useSession((store) => store.session);
  const afterSignIn = useAfterSignIn();
  const [params] = useSearchParams();
  const referralCode = params.get(REFERRAL_PARAM);
  const [processing, setProcessing] = useState(false);
  // Silent: the page itself says sign-in is unavailable and offers a retry.
  const config = useQuery(callQuery(authConfig, { silent: true }));

  // A friend's invite link: its code waits for the activation page, whichever way the visitor signs in.
  useEffect(() => rememberReferralCode(referralCode), [referralCode]);

  // Signing in sets the session; an already signed-in visitor moves on the same way.
  useEffect(() => {
    if (session.state === 'signedIn') afterSignIn(session.user);
  }, [session, afterSignIn]);

  const signInWithGoogle = () => {
    setProcessing(true);
    window.location.assign(`${apiBase()}${AUTH_GOOGLE_PATH}`);
  };

  let methods: ReactNode;
  if (config.isPending) methods = <Busy />;
  else if (config.isError) methods = <RetryAlert title={t('login.unavailable')} onRetry={() => config.refetch()} />;
  else if (!config.data.google && !config.data.devLogin) methods = <Alert type="info" showIcon title={t('login.noMethod')} />;
  else
    methods = (
      <>
        {config.data.google && (
          <Button type="primary" size="large" block icon={<GoogleOutlined />} loading={processing} onClick={signInWithGoogle}>
            {t('login.google')}
          </Button>
        )}
        {config.data.google && config.data.devLogin && <Divider plain>{t('login.or')}</Divider>}
        {config.data.devLogin && <DevLoginForm primary={!config.data.google} processing={processing} onProcessing={setProcessing} />}
      </>
    );

  return (
    <AuthFrame title={t('login.title')} subtitle={t('login.subtitle')}>
      {methods}
      {processing && <Busy compact text={t('login.processing')} />}
      <p className={styles.agreement}>
        <Trans
          t={t}
          i18nKey="login.agreement"
          components={{ terms: <Link to={PATHS.termsOfUse} />, privacy: <Link to={PATHS.privacyPolicy} /> }}
        />
      </p>
    </AuthFrame>
  );
}

interface DevLoginFormProps {
  /** The main call to action unless Google sign-in is offered beside it. */
  primary: boolean;
  processing: boolean;
  onProcessing: (processing: boolean) => void;
}

/** Dev sign-in: an e-mail address is enough; Enter submits. */
function DevLoginForm({ primary, processing, onProcessing }: DevLoginFormProps) {
  const { t } = useTranslation('auth');
  const setUser = useSession((store) => store.setUser);

  const submit = async ({ email }: { email: string }) => {
    onProcessing(true);
    try {
      setUser(await api(authDevLogin, { body: { email: email.trim() } }));
    } catch {
      // The API client has shown why; the form stays for another try.
      onProcessing(false);
    }
  };

  return (
    <Form layout="vertical" requiredMark={false} onFinish={submit}>
      <Form.Item
        name="email"
        label={t('login.emailLabel')}
        rules={[{ required: true, type: 'email', whitespace: true, message: t('login.emailInvalid') }]}
      >
        <Input
          name="email"
          type="email"
          size="large"
          autoComplete="email"
          prefix={<MailOutlined />}
          placeholder={t('login.emailPlaceholder')}
        />
      </Form.Item>
      <Button type={primary ? 'primary' : 'default'} size="large" block htmlType="submit" loading={processing}>
        {t('login.emailSubmit')}
      </Button>
      <p className={styles.note}>{t('login.devNote')}</p>
    </Form>
  );
}
