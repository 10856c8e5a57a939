import { describe, expect, it } from 'vitest';
import { emptyProduct, newProject, type Project } from '../project/types';
import { thumbnailQuery } from './thumbnails';

const picture = { fileId: 'f1', fileName: 'tee.jpg', fileUrl: 'https://cdn/tee.jpg', resKey: 'u/1/f1.jpg', format: 'jpg' };

/** A Portuguese shop's product whose name has no accents, so nothing in the name itself says Portuguese. */
const project = (language?: Project['editorConfig']['language']): Project => {
  const base = newProject('p1', 'https://loja.example/p');
  return {
    ...base,
    editorConfig: { ...base.editorConfig, ...(language && { language }) },
    product: {
      ...emptyProduct(),
      productName: 'Camiseta Basica',
      productPrice: '59.90',
      productCurrency: 'BRL',
      productImages: [picture],
      productFacts: { language: 'pt' },
    },
  };
};

describe('the template picker’s thumbnails', () => {
  it('are drawn in the ad’s language: the page’s own when none is chosen, as the previews are', () => {
    expect(thumbnailQuery(project())).toMatchObject({ fileId: 'f1', language: 'pt', currency: 'BRL' });
  });

  it('follow the language chosen in the editor over the page’s', () => {
    expect(thumbnailQuery(project('en')).language).toBe('en');
  });
});
