import OnceSecretModal from '@/components/OnceSecretModal';

/** A client secret, shown once after create or rotate. */
export default function SecretModal({
  shown,
  onClose,
}: {
  shown?: { clientId: string; secret: string };
  onClose: () => void;
}) {
  return (
    <OnceSecretModal
      shown={shown && { secret: shown.secret, values: { clientId: shown.clientId } }}
      titleId="system.client.secret.title"
      noticeId="system.client.secret.once"
      testId="client-secret"
      onClose={onClose}
    />
  );
}
