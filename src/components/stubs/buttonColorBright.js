/**
 * Stands in for antd's ColorPresets where antd's Button style imports it (build only, see .umirc.ts): the Button needs
 * only `isBright`, but the module brought the ColorPicker's preset panel, and antd's Collapse with it, into every
 * screen. The same function as antd 5's (color-picker/components/ColorPresets.js).
 * Plain JavaScript: it takes the place of a file of node_modules, which is not compiled as TypeScript.
 */
import { Color as RcColor } from '@rc-component/color-picker';

export const isBright = (value, bgColorToken) => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  // adapted to dark mode
  if (a <= 0.5) return hsv.v > 0.5;
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};
