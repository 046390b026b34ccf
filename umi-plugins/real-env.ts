/**
 * Puts back what the environment of `npm run dev` set (umi-plugins/dev.cjs) over the `.env` and `.env.local` values
 * Umi has just written: the real environment wins, `PORT=19801 npm run dev` listens on 19801.
 */
export default () => {
  const real = process.env.MEDU_REAL_ENV;
  if (real) Object.assign(process.env, JSON.parse(real));
};
