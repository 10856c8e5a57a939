import { Alert } from 'antd';
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

/** Where Google sign-in comes back to (`?status=success|error`): load the user and move on, or go back to login. */
export function LoginCallbackPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const [params] = useSearchParams();
  const status = params.get('status');
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
    if (!failed) return;
    const timer = setTimeout(() => navigate(PATHS.login, { replace: true }), RETURN_TO_LOGIN_MS);
    return () => clearTimeout(timer);
  }, [failed, navigate]);

  return (
    <AuthFrame>
      {failed ? <Alert type="error" showIcon role="alert" title={t('errors:loginFailed')} /> : <Busy text={t('callback.processing')} />}
    </AuthFrame>
  );
}
