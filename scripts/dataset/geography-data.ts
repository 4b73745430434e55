// Real states with their GST state codes, cities with their STD codes, and areas with the pincode
// of each. Several areas may share a pincode, as they do in life (Hinjewadi and Wakad: 411057).

export type Region = "north" | "west" | "south" | "east" | "punjab";

export interface CitySpec {
  name: string;
  code: string;
  /** Landline trunk code, for company phone numbers. */
  std: string;
  areas: readonly (readonly [name: string, pincode: string])[];
}

export interface StateSpec {
  name: string;
  code: string;
  /** The two digits that open a GSTIN of this state. */
  gst: string;
  region: Region;
  cities: readonly CitySpec[];
}

export const STATES: readonly StateSpec[] = [
  {
    name: "Maharashtra", code: "MH", gst: "27", region: "west",
    cities: [
      { name: "Mumbai", code: "MUM", std: "022", areas: [
        ["Andheri East", "400069"], ["Andheri West", "400058"], ["Bandra West", "400050"], ["Powai", "400076"],
        ["Dadar West", "400028"], ["Colaba", "400005"], ["Borivali West", "400092"], ["Malad West", "400064"],
        ["Goregaon East", "400063"], ["Kurla West", "400070"], ["Chembur", "400071"], ["Vile Parle East", "400057"],
        ["Lower Parel", "400013"], ["Fort", "400001"], ["Ghatkopar East", "400077"],
      ] },
      { name: "Pune", code: "PNQ", std: "020", areas: [
        ["Kothrud", "411038"], ["Hinjewadi", "411057"], ["Wakad", "411057"], ["Viman Nagar", "411014"],
        ["Shivajinagar", "411005"], ["Hadapsar", "411028"], ["Baner", "411045"], ["Aundh", "411007"],
      ] },
      { name: "Thane", code: "TNA", std: "022", areas: [
        ["Naupada", "400602"], ["Majiwada", "400601"], ["Kasarvadavali", "400615"],
      ] },
      { name: "Nagpur", code: "NGP", std: "0712", areas: [
        ["Dharampeth", "440010"], ["Sitabuldi", "440012"], ["Sadar", "440001"],
      ] },
      { name: "Nashik", code: "NSK", std: "0253", areas: [["College Road", "422005"], ["Panchavati", "422003"]] },
    ],
  },
  {
    name: "Karnataka", code: "KA", gst: "29", region: "south",
    cities: [
      { name: "Bengaluru", code: "BLR", std: "080", areas: [
        ["Koramangala", "560034"], ["Indiranagar", "560038"], ["Whitefield", "560066"], ["Jayanagar", "560011"],
        ["Malleshwaram", "560003"], ["HSR Layout", "560102"], ["Electronic City", "560100"], ["Rajajinagar", "560010"],
        ["Yelahanka", "560064"], ["BTM Layout", "560076"],
      ] },
      { name: "Mysuru", code: "MYS", std: "0821", areas: [
        ["Vijayanagar", "570017"], ["Saraswathipuram", "570009"], ["Kuvempunagar", "570023"],
      ] },
      { name: "Mangaluru", code: "IXE", std: "0824", areas: [["Hampankatta", "575001"], ["Kadri", "575002"]] },
      { name: "Hubballi", code: "UBL", std: "0836", areas: [["Vidyanagar", "580021"], ["Keshwapur", "580023"]] },
    ],
  },
  {
    name: "Tamil Nadu", code: "TN", gst: "33", region: "south",
    cities: [
      { name: "Chennai", code: "MAA", std: "044", areas: [
        ["T. Nagar", "600017"], ["Adyar", "600020"], ["Anna Nagar", "600040"], ["Velachery", "600042"],
        ["Mylapore", "600004"], ["Guindy", "600032"], ["Porur", "600116"], ["Tambaram", "600045"],
      ] },
      { name: "Coimbatore", code: "CBE", std: "0422", areas: [
        ["R.S. Puram", "641002"], ["Gandhipuram", "641012"], ["Peelamedu", "641004"],
      ] },
      { name: "Madurai", code: "IXM", std: "0452", areas: [["Tallakulam", "625002"], ["Simmakkal", "625001"]] },
    ],
  },
  {
    name: "Delhi", code: "DL", gst: "07", region: "north",
    cities: [
      { name: "New Delhi", code: "DEL", std: "011", areas: [
        ["Connaught Place", "110001"], ["Karol Bagh", "110005"], ["Lajpat Nagar", "110024"], ["Dwarka", "110075"],
        ["Rohini", "110085"], ["Saket", "110017"], ["Janakpuri", "110058"], ["Chandni Chowk", "110006"],
        ["Mayur Vihar", "110091"], ["Vasant Kunj", "110070"],
      ] },
    ],
  },
  {
    name: "Gujarat", code: "GJ", gst: "24", region: "west",
    cities: [
      { name: "Ahmedabad", code: "AMD", std: "079", areas: [
        ["Navrangpura", "380009"], ["Satellite", "380015"], ["Vastrapur", "380015"], ["Maninagar", "380008"],
        ["Bopal", "380058"], ["Naroda", "382330"],
      ] },
      { name: "Surat", code: "STV", std: "0261", areas: [["Adajan", "395009"], ["Varachha", "395006"], ["Athwa", "395007"]] },
      { name: "Vadodara", code: "BDQ", std: "0265", areas: [["Alkapuri", "390007"], ["Fatehgunj", "390002"]] },
      { name: "Rajkot", code: "RAJ", std: "0281", areas: [["Kalawad Road", "360005"], ["Yagnik Road", "360001"]] },
    ],
  },
  {
    name: "West Bengal", code: "WB", gst: "19", region: "east",
    cities: [
      { name: "Kolkata", code: "CCU", std: "033", areas: [
        ["Salt Lake", "700091"], ["Park Street", "700016"], ["Ballygunge", "700019"], ["Behala", "700034"],
        ["New Town", "700156"], ["Gariahat", "700029"],
      ] },
      { name: "Howrah", code: "HWH", std: "033", areas: [["Shibpur", "711102"], ["Howrah Maidan", "711101"]] },
      { name: "Siliguri", code: "IXB", std: "0353", areas: [["Hakimpara", "734001"], ["Pradhan Nagar", "734003"]] },
    ],
  },
  {
    name: "Telangana", code: "TG", gst: "36", region: "south",
    cities: [
      { name: "Hyderabad", code: "HYD", std: "040", areas: [
        ["Banjara Hills", "500034"], ["Gachibowli", "500032"], ["Secunderabad", "500003"], ["Kukatpally", "500072"],
        ["Madhapur", "500081"], ["Ameerpet", "500016"], ["Begumpet", "500016"], ["Dilsukhnagar", "500060"],
      ] },
      { name: "Warangal", code: "WGL", std: "0870", areas: [["Hanamkonda", "506001"], ["Kazipet", "506003"]] },
    ],
  },
  {
    name: "Uttar Pradesh", code: "UP", gst: "09", region: "north",
    cities: [
      { name: "Lucknow", code: "LKO", std: "0522", areas: [
        ["Hazratganj", "226001"], ["Gomti Nagar", "226010"], ["Aliganj", "226024"], ["Indira Nagar", "226016"],
      ] },
      { name: "Kanpur", code: "KNU", std: "0512", areas: [
        ["Civil Lines", "208001"], ["Kidwai Nagar", "208011"], ["Swaroop Nagar", "208002"],
      ] },
      { name: "Noida", code: "NOI", std: "0120", areas: [["Sector 18", "201301"], ["Sector 62", "201309"]] },
      { name: "Varanasi", code: "VNS", std: "0542", areas: [["Lanka", "221005"], ["Sigra", "221010"]] },
    ],
  },
  {
    name: "Rajasthan", code: "RJ", gst: "08", region: "north",
    cities: [
      { name: "Jaipur", code: "JAI", std: "0141", areas: [
        ["Malviya Nagar", "302017"], ["Vaishali Nagar", "302021"], ["C-Scheme", "302001"], ["Mansarovar", "302020"],
        ["Raja Park", "302004"],
      ] },
      { name: "Jodhpur", code: "JDH", std: "0291", areas: [["Sardarpura", "342003"], ["Paota", "342006"]] },
      { name: "Udaipur", code: "UDR", std: "0294", areas: [["Hiran Magri", "313002"], ["Fatehpura", "313004"]] },
    ],
  },
  {
    name: "Kerala", code: "KL", gst: "32", region: "south",
    cities: [
      { name: "Kochi", code: "COK", std: "0484", areas: [
        ["Edappally", "682024"], ["Kakkanad", "682030"], ["Fort Kochi", "682001"], ["Vyttila", "682019"],
        ["Kaloor", "682017"],
      ] },
      { name: "Thiruvananthapuram", code: "TRV", std: "0471", areas: [
        ["Kowdiar", "695003"], ["Pattom", "695004"], ["Kazhakoottam", "695582"],
      ] },
      { name: "Kozhikode", code: "CCJ", std: "0495", areas: [["Mavoor Road", "673004"], ["Nadakkavu", "673011"]] },
    ],
  },
  {
    name: "Punjab", code: "PB", gst: "03", region: "punjab",
    cities: [
      { name: "Ludhiana", code: "LDH", std: "0161", areas: [
        ["Sarabha Nagar", "141001"], ["Civil Lines", "141001"], ["Model Town", "141002"],
      ] },
      { name: "Amritsar", code: "ATQ", std: "0183", areas: [["Ranjit Avenue", "143001"], ["Lawrence Road", "143001"]] },
      { name: "Jalandhar", code: "JUC", std: "0181", areas: [["Model Town", "144003"], ["Civil Lines", "144001"]] },
    ],
  },
  {
    name: "Chandigarh", code: "CH", gst: "04", region: "punjab",
    cities: [
      { name: "Chandigarh", code: "IXC", std: "0172", areas: [
        ["Sector 17", "160017"], ["Sector 22", "160022"], ["Sector 35", "160022"],
      ] },
    ],
  },
  {
    name: "Haryana", code: "HR", gst: "06", region: "north",
    cities: [
      { name: "Gurugram", code: "GGN", std: "0124", areas: [
        ["DLF Phase 1", "122002"], ["Sohna Road", "122018"], ["Sector 14", "122001"], ["Udyog Vihar", "122016"],
      ] },
      { name: "Faridabad", code: "FBD", std: "0129", areas: [["Sector 15", "121007"], ["NIT", "121001"]] },
    ],
  },
  {
    name: "Madhya Pradesh", code: "MP", gst: "23", region: "north",
    cities: [
      { name: "Indore", code: "IDR", std: "0731", areas: [["Vijay Nagar", "452010"], ["Palasia", "452001"], ["Rajwada", "452004"]] },
      { name: "Bhopal", code: "BHO", std: "0755", areas: [["MP Nagar", "462011"], ["Arera Colony", "462016"], ["New Market", "462003"]] },
      { name: "Jabalpur", code: "JLR", std: "0761", areas: [["Napier Town", "482001"], ["Wright Town", "482002"]] },
    ],
  },
  {
    name: "Bihar", code: "BR", gst: "10", region: "east",
    cities: [
      { name: "Patna", code: "PAT", std: "0612", areas: [["Boring Road", "800001"], ["Kankarbagh", "800020"], ["Rajendra Nagar", "800016"]] },
    ],
  },
  {
    name: "Odisha", code: "OD", gst: "21", region: "east",
    cities: [
      { name: "Bhubaneswar", code: "BBI", std: "0674", areas: [["Saheed Nagar", "751007"], ["Patia", "751024"], ["Nayapalli", "751012"]] },
      { name: "Cuttack", code: "CTC", std: "0671", areas: [["Buxi Bazaar", "753001"], ["CDA Sector 6", "753014"]] },
    ],
  },
  {
    name: "Assam", code: "AS", gst: "18", region: "east",
    cities: [
      { name: "Guwahati", code: "GAU", std: "0361", areas: [["Paltan Bazaar", "781008"], ["Dispur", "781006"], ["Zoo Road", "781005"]] },
    ],
  },
  {
    name: "Goa", code: "GA", gst: "30", region: "west",
    cities: [
      { name: "Panaji", code: "GOI", std: "0832", areas: [["Altinho", "403001"], ["Porvorim", "403521"]] },
      { name: "Margao", code: "MAO", std: "0832", areas: [["Borda", "403602"], ["Aquem", "403601"]] },
    ],
  },
  {
    name: "Andhra Pradesh", code: "AP", gst: "37", region: "south",
    cities: [
      { name: "Visakhapatnam", code: "VTZ", std: "0891", areas: [["Dwaraka Nagar", "530016"], ["MVP Colony", "530017"], ["Gajuwaka", "530026"]] },
      { name: "Vijayawada", code: "VGA", std: "0866", areas: [["Benz Circle", "520010"], ["Governorpet", "520002"]] },
    ],
  },
  {
    name: "Jharkhand", code: "JH", gst: "20", region: "east",
    cities: [
      { name: "Ranchi", code: "IXR", std: "0651", areas: [["Lalpur", "834001"], ["Doranda", "834002"], ["Kanke Road", "834008"]] },
      { name: "Jamshedpur", code: "IXW", std: "0657", areas: [["Bistupur", "831001"], ["Sakchi", "831001"]] },
    ],
  },
  {
    name: "Chhattisgarh", code: "CG", gst: "22", region: "north",
    cities: [
      { name: "Raipur", code: "RPR", std: "0771", areas: [["Shankar Nagar", "492007"], ["Pandri", "492004"]] },
    ],
  },
  {
    name: "Jammu and Kashmir", code: "JK", gst: "01", region: "north",
    cities: [
      { name: "Srinagar", code: "SXR", std: "0194", areas: [["Lal Chowk", "190001"], ["Rajbagh", "190008"]] },
      { name: "Jammu", code: "IXJ", std: "0191", areas: [["Gandhi Nagar", "180004"], ["Trikuta Nagar", "180012"]] },
    ],
  },
];

/**
 * A real pincode that no area above uses and no sales agent serves: the pincode lookup's "none
 * serves it" case (Navi Mumbai, Vashi).
 */
export const UNSERVED_PINCODE = "400703";

/** States where the distributor holds a GST registration: sales there are intra-state (CGST + SGST). */
export const HOME_STATE_CODES: ReadonlySet<string> = new Set(["MH", "KA", "TN", "DL", "GJ"]);
