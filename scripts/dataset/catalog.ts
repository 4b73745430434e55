// The product catalogue of a grocery and household goods distributor: SKU, name, list price (in
// paise) and GST rate. Prices are list prices; an order line may carry a negotiated price.
import products from "./products.json" with { type: "json" };

export interface CatalogItem {
  sku: string;
  name: string;
  pricePaise: number;
  gstRate: number;
}

/** products.json: [sku, name, list price in rupees, GST rate in percent] each. */
const ITEMS = products as [sku: string, name: string, rupees: number, gst: number][];
export const CATALOG: readonly CatalogItem[] = ITEMS.map(([sku, name, rupees, gstRate]) => ({
  sku,
  name,
  pricePaise: rupees * 100,
  gstRate,
}));
