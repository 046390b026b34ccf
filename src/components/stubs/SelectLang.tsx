/**
 * Stands in for plugin-locale's SelectLang (build only, see .umirc.ts): the console has its own
 * language switch, and the generated one would put antd Menu and Dropdown in the first download.
 */
export const SelectLang = () => null;
