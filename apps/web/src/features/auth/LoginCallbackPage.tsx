import { isLoginFailureReason } from '@reelsmith/contract';
import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/paths';
import { Busy } from '../../shared/ui/Busy';
import { AuthFrame } from './AuthFrame';
import { useSession } from './session';
import { useAfterSignIn } from './useAfterSignIn';

/** Long enough to read the failure message before returning to the login page. */
const RETURN_TO_LOGIN_MS = 2000;

/**
 * Where Google sign-in comes back to (`?status=success|error`): load the user and move on, or go back to login.
 * A refusal with a reason the person can act on (`&reason=accountBlocked`, …) stays on screen with its message and
 * a way back, instead of the generic failure that returns by itself (docs/decisions, "An operator's block").
 */
export function LoginCallbackPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const [params] = useSearchParams();
  const status = params.get('status');
  const reason = params.get('reason');
  const explained = status !== 'success' && isLoginFailureReason(reason);
  const loadUser = useSession((store) => store.loadUser);
  const afterSignIn = useAfterSignIn();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(status !== 'success');

  useEffect(() => {
    if (status !== 'success') return;
    let current = true;
    loadUser().then((user) => {
      if (!current) return;
      if (user) afterSignIn(user);
      else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [status, loadUser, afterSignIn]);

  useEffect(() => {
    if (!failed || explained) return;
    const timer = setTimeout(() => navigate(PATHS.login, { replace: true }), RETURN_TO_LOGIN_MS);
    return () => clearTimeout(timer);
  }, [failed, explained, navigate]);

  if (explained) {
    return (
      <AuthFrame>
        <Alert type="error" showIcon role="alert" title={t(`errors:${reason}`)} />
        <Button block size="large" onClick={() => navigate(PATHS.login, { replace: true })}>
          {t('callback.backToLogin')}
        </Button>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame>
      {failed ? <Alert type="error" showIcon role="alert" title={t('errors:loginFailed')} /> : <Busy text={t('callback.processing')} />}
    </AuthFrame>
  );
}
