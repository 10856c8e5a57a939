import type { ReactNode } from 'react';
import type { PickedImage } from '../generation';

/** What the image edit page gives each of its tools: the page's title and tabs, and the product image field and value. */
export interface EditToolProps {
  title: string;
  nav: ReactNode;
  /** The product image field, shared by the three tools so a picture stays chosen across tabs. */
  source: ReactNode;
  image: PickedImage | null;
}
