import { KeyOutlined } from '@ant-design/icons';
import { usersActivate } from '@reelsmith/contract';
import { Button, Form, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/client';
import { PATHS } from '../../shared/paths';
import { toast } from '../../shared/ui/toast';
import { AuthFrame } from './AuthFrame';
import styles from './auth.module.css';
import { forgetReferralCode, storedReferralCode } from './referral';
import { useSession, useUser } from './session';
import { signOut } from './signOut';
import { useAfterSignIn } from './useAfterSignIn';

/** Invitation-only beta: a signed-in, inactive user enters a code to become active (spec "Screens and routes", "Validation rules"). */
export function ActivatePage() {
  const { t } = useTranslation(['auth', 'errors']);
  const user = useUser();
  const loadUser = useSession((store) => store.loadUser);
  const afterSignIn = useAfterSignIn();
  const navigate = useNavigate();
  // The code of the invite link that brought the visitor, if any (spec "What the product does" invite programme).
  const [code, setCode] = useState(() => storedReferralCode() ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Set before the user reloads as ACTIVE, so the "already active" rule below does not pre-empt the landing.
  const activatedHere = useRef(false);

  useEffect(() => {
    if (user?.status === 'ACTIVE' && !activatedHere.current) navigate(PATHS.home, { replace: true });
  }, [user, navigate]);

  const activate = async () => {
    const inviteCode = code.trim();
    if (!inviteCode) {
      setProblem(t('errors:emptyInviteCode'));
      return;
    }
    setProblem(null);
    setSubmitting(true);
    try {
      if (!(await api(usersActivate, { query: { inviteCode } }))) {
        setProblem(t('errors:invalidInviteCode'));
        return;
      }
      activatedHere.current = true;
      forgetReferralCode();
      toast.success(t('activate.success'));
      const activeUser = await loadUser();
      if (activeUser) afterSignIn(activeUser);
    } catch {
      // The API client has shown why.
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthFrame title={t('activate.title')} subtitle={t('activate.subtitle')}>
      <Form layout="vertical" requiredMark={false} onFinish={activate}>
        <Form.Item
          label={t('activate.codeLabel')}
          htmlFor="invite-code"
          validateStatus={problem ? 'error' : undefined}
          help={problem && <span role="alert">{problem}</span>}
        >
          <Input
            id="invite-code"
            name="inviteCode"
            size="large"
            autoComplete="off"
            prefix={<KeyOutlined />}
            placeholder={t('activate.codePlaceholder')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </Form.Item>
        <Button type="primary" size="large" block htmlType="submit" loading={submitting}>
          {t('activate.submit')}
        </Button>
      </Form>
      {user && (
        <div className={styles.footer}>
          <span className={styles.note}>{t('activate.signedInAs', { email: user.email })}</span>
        </div>
      )}
      <div className={styles.footer}>
        <Button type="link" size="small" onClick={() => signOut().catch(() => {})}>
          {t('activate.switchAccount')}
        </Button>
      </div>
    </AuthFrame>
  );
}
