import {
  AVATAR_SCRIPT_MAX,
  AVATAR_SECONDS_MAX,
  avatarEngine,
  avatarSeconds,
  isLocale,
  LOCALES,
  type Locale,
  linkVideoMusic,
  linkVideoVoices,
} from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import { LANGUAGES } from '../../shared/i18n/locale';
import { Choice, Field, ImageInput, imageRef, type PickedImage, SubmitBar, ToolLayout, useGenerationForm } from '../generation';
import { HoldProduct } from './HoldProduct';
import { type PresenterChoice, PresenterPicker } from './PresenterPicker';
import { usePresenters } from './presentersApi';
import { ScriptFromLink } from './ScriptFromLink';

type Shape = '9:16' | '1:1' | '16:9';
const SHAPES: Shape[] = ['9:16', '1:1', '16:9'];

/**
 * The Avatar tool (decision "The Avatar tool"): a presenter's portrait says the user's script, lip-synced,
 * captioned and labelled "AI-generated", at the shape asked. Priced per second of the script as spoken at an ad's
 * pace, counted here as the server counts it, so the price shown is the one charged. A saved presenter can first be
 * given a product to hold (decision "Product in hand"), which makes a presenter of the user's own holding it.
 */
export function AvatarPage() {
  const { t, i18n } = useTranslation(['avatar', 'generation', 'app']);
  const [presenter, setPresenter] = useState<PresenterChoice>(null);
  const [script, setScript] = useState('');
  const [language, setLanguage] = useState<Locale>(isLocale(i18n.language) ? i18n.language : 'en');
  const [voiceId, setVoiceId] = useState<string | undefined>(undefined);
  const [musicId, setMusicId] = useState<string | undefined>(undefined);
  const [ratio, setRatio] = useState<Shape>('9:16');
  const [product, setProduct] = useState<PickedImage | null>(null);
  const presenters = usePresenters();
  const saved = presenter && 'presenterId' in presenter ? presenters.data?.find((p) => p.presenterId === presenter.presenterId) : undefined;
  const engine = useQuery(callQuery(avatarEngine, {}));
  const voices = useQuery(callQuery(linkVideoVoices, { query: { language } }));
  const music = useQuery(callQuery(linkVideoMusic, {}));
  const seconds = script.trim() ? avatarSeconds(script) : 0;

  const check = () => {
    if (!presenter) return t('validation.presenterRequired');
    if ('photo' in presenter && !presenter.consent) return t('validation.consentRequired');
    if (!/[\p{L}\p{N}]/u.test(script)) return t('validation.scriptEmpty');
    if (seconds > AVATAR_SECONDS_MAX) return t('validation.scriptTooLong', { seconds: AVATAR_SECONDS_MAX });
    return null;
  };
  const form = useGenerationForm(check);
  const submit = () =>
    form.submit('avatar-video', () => ({
      script: script.trim(),
      // A saved presenter was consented to when it was saved; a photo is consented to now.
      ...(presenter && 'presenterId' in presenter
        ? { presenter: { presenterId: presenter.presenterId } }
        : { presenter: imageRef((presenter as { photo: PickedImage }).photo), consent: true as const }),
      language,
      voiceId: voices.data?.some((voice) => voice.voiceId === voiceId) ? voiceId : undefined,
      musicId,
      ratio,
    }));

  return (
    <ToolLayout title={t('app:routes.avatar')} tool="avatar-video" form={form}>
      {/* Without a vendor the server says so before anything is charged; the sandbox's videos are stand-ins. */}
      {engine.data?.engine === null && <Alert type="warning" showIcon title={t('unavailable')} />}
      {engine.data?.engine === 'sandbox' && <Alert type="info" showIcon title={t('sandbox')} />}
      <PresenterPicker value={presenter} onChange={setPresenter} />
      {saved && engine.data?.engine !== null && (
        <section aria-labelledby="avatar-hold-title">
          <Typography.Text strong id="avatar-hold-title">
            {t('hold.title')}
          </Typography.Text>
          <Typography.Paragraph type="secondary">{t('hold.hint')}</Typography.Paragraph>
          <ImageInput label={t('hold.product')} value={product} onChange={setProduct} />
          {product && (
            <HoldProduct
              presenter={saved}
              pictures={[product]}
              onHeld={(presenterId) => {
                setPresenter({ presenterId });
                setProduct(null);
              }}
            />
          )}
        </section>
      )}
      <ScriptFromLink
        language={language}
        onWritten={(written, spoken) => {
          setScript(written);
          if (spoken !== language) {
            setLanguage(spoken);
            setVoiceId(undefined);
          }
        }}
      />
      <Field id="avatar-script" label={t('script')}>
        <Input.TextArea
          id="avatar-script"
          value={script}
          maxLength={AVATAR_SCRIPT_MAX}
          showCount
          autoSize={{ minRows: 4, maxRows: 10 }}
          placeholder={t('scriptPlaceholder')}
          onChange={(event) => setScript(event.target.value)}
        />
      </Field>
      {seconds > 0 && (
        <Typography.Text type={seconds > AVATAR_SECONDS_MAX ? 'danger' : 'secondary'} data-testid="avatar-seconds">
          {t('length', { seconds })}
        </Typography.Text>
      )}
      <Choice
        label={t('language')}
        value={language}
        options={LOCALES.map((locale) => ({ value: locale, label: LANGUAGES[locale].name }))}
        onChange={(next) => {
          setLanguage(next);
          setVoiceId(undefined);
        }}
      />
      <Field id="avatar-voice" label={t('voice')}>
        <Select
          id="avatar-voice"
          value={voiceId}
          placeholder={t('voiceDefault')}
          allowClear
          loading={voices.isPending}
          options={(voices.data ?? []).map((voice) => ({ value: voice.voiceId, label: `${voice.name} · ${t(`gender.${voice.gender}`)}` }))}
          onChange={setVoiceId}
        />
      </Field>
      <Field id="avatar-music" label={t('music')}>
        <Select
          id="avatar-music"
          value={musicId}
          placeholder={t('musicNone')}
          allowClear
          loading={music.isPending}
          options={(music.data ?? []).map((track) => ({ value: track.musicId, label: track.name }))}
          onChange={setMusicId}
        />
      </Field>
      <Choice
        label={t('generation:fields.ratio')}
        value={ratio}
        options={SHAPES.map((shape) => ({ value: shape, label: shape }))}
        onChange={setRatio}
      />
      <SubmitBar
        skuCode="avatarVideo"
        count={Math.max(1, seconds)}
        problem={form.problem}
        submitting={form.submitting}
        onSubmit={submit}
        standInNotice={false}
      />
    </ToolLayout>
  );
}
