/** What every ffmpeg graph of the renderer shares: quoting a value into a graph, and the colour pictures leave in. */

/** Escapes a value for a filter option, then for the filter graph (ffmpeg's two quoting levels). */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** Pictures leave here as BT.709 (limited range), tagged so: the decision "BT.709 exports". */
export const BT709 =
  'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p,setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709';
