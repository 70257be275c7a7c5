import { GiftIcon } from '../../components/ui/icons';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

// Placeholder until the catalogue issue lists packages and add-ons.
export function PackagesPage() {
  return (
    <PlaceholderPage title="View Packages" icon={<GiftIcon />}>
      <p>Our photo packages and add-ons will appear here, with prices in Australian dollars including GST.</p>
    </PlaceholderPage>
  );
}
