import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { findLibraryImage, ImageInput, type PickedImage } from '../generation';
import { BackgroundTool } from './BackgroundTool';
import { EnhanceTool } from './EnhanceTool';
import { ExtendTool } from './ExtendTool';

const TABS = ['background', 'extend', 'enhance'] as const;
type Tab = (typeof TABS)[number];
const TOOLS = { background: BackgroundTool, extend: ExtendTool, enhance: EnhanceTool };

/**
 * Image edit (spec "Screens and routes" screen 4): AI background, image extension and HD enhancement in tabs, on one product image
 * that stays chosen across them. `?fileId=` (the assets page's edit action) starts with that asset.
 */
export function ImageEditPage() {
  const { t } = useTranslation(['image-edit', 'app']);
  const [tab, setTab] = useState<Tab>('background');
  const [image, setImage] = useState<PickedImage | null>(null);
  const fileId = useSearchParams()[0].get('fileId');
  const linked = useQuery({
    queryKey: ['image-edit', 'file', fileId],
    queryFn: ({ signal }) => findLibraryImage(fileId as string, signal),
    enabled: fileId !== null,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (linked.data) setImage(linked.data);
  }, [linked.data]);

  const Tool = TOOLS[tab];
  return (
    <Tool
      title={t('app:routes.imageEdit')}
      nav={<Tabs activeKey={tab} onChange={(key) => setTab(key as Tab)} items={TABS.map((key) => ({ key, label: t(`tabs.${key}`) }))} />}
      source={<ImageInput label={t('productImage')} value={image} onChange={setImage} />}
      image={image}
    />
  );
}
