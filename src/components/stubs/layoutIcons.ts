/**
 * Stands in for plugin-layout's generated icon table (build only, see .umirc.ts): the menu request gives routes
 * their icons (src/components/layout/menuIcons.tsx), so the first download carries none.
 */
export default {};
