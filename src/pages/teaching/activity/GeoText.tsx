import { useIntl } from '@umijs/max';

/** A sign-in place as text: its coordinates and radius (no map: nothing is downloaded to show it). */
export default function GeoText({ lat, lng, radius }: { lat: number; lng: number; radius: number }) {
  const intl = useIntl();
  return <>{intl.formatMessage({ id: 'teaching.activity.geo.value' }, { lat, lng, radius })}</>;
}
