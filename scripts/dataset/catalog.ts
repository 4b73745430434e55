// The product catalogue of a grocery and household goods distributor: SKU, name, list price (in
// paise) and GST rate. Prices are list prices; an order line may carry a negotiated price.

export interface CatalogItem {
  sku: string;
  name: string;
  pricePaise: number;
  gstRate: number;
}

const ITEMS: readonly (readonly [sku: string, name: string, rupees: number, gst: number])[] = [
  ["TEA-ASM-250", "Assam CTC Tea 250g", 145, 5],
  ["TEA-ASM-1K", "Assam CTC Tea 1kg", 520, 5],
  ["TEA-DJL-100", "Darjeeling Leaf Tea 100g", 210, 5],
  ["COF-FLT-200", "Filter Coffee Powder 200g", 185, 5],
  ["COF-INS-100", "Instant Coffee 100g", 295, 18],
  ["RIC-BAS-1K", "Basmati Rice 1kg", 135, 5],
  ["RIC-BAS-5K", "Basmati Rice 5kg", 620, 5],
  ["RIC-SNM-25K", "Sona Masoori Rice 25kg", 1450, 5],
  ["ATA-WHT-5K", "Whole Wheat Atta 5kg", 265, 5],
  ["ATA-WHT-10K", "Whole Wheat Atta 10kg", 499, 5],
  ["DAL-TUR-1K", "Toor Dal 1kg", 165, 5],
  ["DAL-MNG-1K", "Moong Dal 1kg", 140, 5],
  ["DAL-CHN-1K", "Chana Dal 1kg", 98, 5],
  ["DAL-URD-500", "Urad Dal 500g", 78, 5],
  ["OIL-SUN-1L", "Sunflower Oil 1L", 155, 5],
  ["OIL-SUN-5L", "Sunflower Oil 5L", 740, 5],
  ["OIL-MUS-1L", "Kachi Ghani Mustard Oil 1L", 175, 5],
  ["OIL-GNT-1L", "Groundnut Oil 1L", 210, 5],
  ["GHE-COW-500", "Cow Ghee 500ml", 330, 12],
  ["GHE-COW-1L", "Cow Ghee 1L", 640, 12],
  ["SUG-WHT-1K", "Sugar 1kg", 48, 5],
  ["SUG-JAG-1K", "Jaggery 1kg", 72, 0],
  ["SAL-IOD-1K", "Iodised Salt 1kg", 28, 0],
  ["SPC-TUR-200", "Turmeric Powder 200g", 62, 5],
  ["SPC-CHL-200", "Red Chilli Powder 200g", 78, 5],
  ["SPC-COR-200", "Coriander Powder 200g", 54, 5],
  ["SPC-GRM-100", "Garam Masala 100g", 88, 5],
  ["SPC-JEE-100", "Cumin Seeds 100g", 65, 5],
  ["BSC-GLU-800", "Glucose Biscuits 800g", 95, 18],
  ["BSC-CRM-300", "Cream Biscuits 300g", 60, 18],
  ["NMK-BHJ-400", "Aloo Bhujia 400g", 110, 12],
  ["NMK-MIX-200", "Mixture Namkeen 200g", 55, 12],
  ["NDL-MAS-280", "Masala Noodles 4-pack 280g", 56, 12],
  ["SOP-BTH-4X", "Bathing Soap 4x100g", 180, 18],
  ["SOP-DET-1K", "Detergent Powder 1kg", 120, 18],
  ["SOP-DET-4K", "Detergent Powder 4kg", 430, 18],
  ["SOP-LIQ-1L", "Liquid Detergent 1L", 225, 18],
  ["DSH-BAR-3X", "Dishwash Bar 3x200g", 45, 18],
  ["DSH-GEL-750", "Dishwash Gel 750ml", 165, 18],
  ["TPT-FLU-150", "Fluoride Toothpaste 150g", 99, 18],
  ["SHP-HRB-340", "Herbal Shampoo 340ml", 240, 18],
  ["OIL-COC-500", "Coconut Hair Oil 500ml", 199, 18],
  ["FLR-CLN-1L", "Floor Cleaner 1L", 185, 18],
  ["TLT-CLN-500", "Toilet Cleaner 500ml", 98, 18],
  ["AGB-SAN-120", "Agarbatti Sandal 120 sticks", 70, 5],
  ["MLK-PWD-500", "Dairy Whitener 500g", 245, 5],
  ["PKG-WTR-1L", "Packaged Drinking Water 1L x12", 180, 18],
  ["BEV-SQS-750", "Mango Squash 750ml", 155, 12],
  ["PPR-TIS-100", "Facial Tissues 100 pulls", 65, 18],
  ["MCH-SFT-10", "Safety Matches 10-pack", 20, 12],
];

export const CATALOG: readonly CatalogItem[] = ITEMS.map(([sku, name, rupees, gstRate]) => ({
  sku, name, pricePaise: rupees * 100, gstRate,
}));
